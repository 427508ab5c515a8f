/*
 * A traced run's timeline (memscope --trace): trace.json, in the Chrome Trace
 * Event format that Perfetto UI, chrome://tracing and speedscope open, and
 * timeline.csv, its NVTX ranges as a table for the report. The host's ranges
 * and the GPU's kernels, copies and sets share one clock (CUPTI's); times are
 * written in microseconds from the run's first range. Each kernel carries the
 * job and phase it ran in and, where the run measured them, its job's limiter,
 * exact conflicts, load efficiency and top stall reason. docs/trace.md
 * describes the file; tests/schemas/trace-event.schema.json checks it.
 */
#ifndef MEMSCOPE_RESULTS_TRACE_H
#define MEMSCOPE_RESULTS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"

/* The host track of memscope's own run, "NVTX ranges": its ranges are all on one thread. */
enum { TRACE_RUN_TRACK = 1 };

struct trace_range {
    const char *name, *job; /* job: "" outside a job */
    int depth, width;
    uint64_t start_ns, end_ns;
    unsigned tid; /* its host thread's track: TRACE_RUN_TRACK, or a program's thread id ("thread <tid>") */
};

/* What the run measured of a job, for its kernels' slices: NAN or "" where not measured. */
struct trace_job_facts {
    const char *job;
    const char *limiter, *stall_top_reason;
    double shared_conflicts_exact, global_load_efficiency_pct;
};

struct trace_gpu_op {
    const char *category;    /* "kernel", "memcpy" or "memset" */
    const char *name;        /* a kernel's demangled name; "memcpy HtoD", "memset"... */
    const char *job, *phase; /* the job and phase range it ran in ("" for none) */
    uint64_t start_ns, end_ns;
    unsigned device, stream, correlation;
    int grid[3], block[3], registers, static_shared, dynamic_shared; /* kernels */
    uint64_t bytes;                                                  /* copies and sets */
    const struct trace_job_facts *facts; /* on the variant's own kernels, what the run measured of its job; NULL */
};

struct trace_header {
    const char *gpu_name, *command_line;
    uint64_t origin_ns;       /* the clock's value at time 0: the run's first range */
    uint64_t dropped_records; /* GPU records CUPTI reported lost */
    int ranges_lost;          /* host ranges not kept (memory, nesting) */
    const char *host_name;    /* the host process's name: "memscope (host)", or the program profiled */
};

/* Writes dir/trace.json and dir/timeline.csv. */
int trace_write(const char *dir, const struct trace_header *h, const struct trace_range *ranges, size_t n_ranges,
                const struct trace_gpu_op *ops, size_t n_ops, struct error *e);

#endif
