/*
 * --trace: the run's timeline. CUPTI's Activity API records every kernel,
 * copy and set on the GPU, and the NVTX ranges are kept on the same clock;
 * at the end each GPU record is placed in the job and phase whose range holds
 * its start, joined with what the run measured of the job, and written as
 * trace.json and timeline.csv (results/trace.h).
 */
#ifndef MEMSCOPE_TRACE_RUN_H
#define MEMSCOPE_TRACE_RUN_H

#include "../common/error.h"
#include "../results/environment_csv.h"
#include "job.h"

/* Before the run's first range and kernel. */
int trace_run_start(struct error *e);
/* Writes the trace into dir and records its counts in env (trace_kernels, trace_dropped_records). */
int trace_run_write(const char *dir, const struct job_result *jobs, int count, struct environment *env,
                    struct error *e);
/* No GPU records during a width's metric passes and source counters (CUPTI's SASS instrumentation reads 0 beside
 * kernel records), and again after; their ranges stay in the trace. Stall sampling keeps its records: PC sampling
 * instruments nothing, and CUPTI refuses to turn records back on while the PC sampler is enabled. No-ops when not
 * tracing. */
int trace_run_pause(struct error *e);
int trace_run_resume(struct error *e);
/* Records no more and frees what was kept (also after a failed run). */
void trace_run_stop(void);

#endif
