/*
 * NVTX annotation, domain "memscope": one range for the run, one per
 * variant x size (named "<variant> W=<width>"), and one per phase inside it,
 * except the metric passes of a width, which profile all its variants at once
 * and sit directly inside the run's range.
 * Each phase has its own category and colour; every range carries the width
 * as its payload.
 */
#ifndef MEMSCOPE_TRACE_H
#define MEMSCOPE_TRACE_H

enum phase {
    PHASE_ALLOCATE,
    PHASE_COPY_IN,
    PHASE_REFERENCE,
    PHASE_VERIFY,
    PHASE_WARMUP,
    PHASE_TIMED_RUNS,
    PHASE_COPY_OUT,
    PHASE_METRICS,
    PHASE_SOURCE,
    PHASE_STALLS,
    PHASE_CEILINGS,
    PHASE_RELEASE,
    PHASE_COUNT
};

const char *phase_name(enum phase p);
void nvtx_run_begin(void);
void nvtx_job_begin(const char *variant, int width);
void nvtx_phase_begin(enum phase p, int width);
void nvtx_end(void);

#endif
