/*
 * NVTX annotation, domain "memscope": one range for the run, one per
 * variant x size (named "<variant> W=<width>"), and one per phase inside it,
 * except the metric passes of a width, which profile all its variants at once
 * and sit directly inside the run's range.
 * Each phase has its own category and colour; every range carries the width
 * as its payload (0 for a size that is not one width).
 */
#ifndef MEMSCOPE_TRACE_H
#define MEMSCOPE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "../results/product_shape.h"

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

/* The run's own range, the outermost. */
#define NVTX_RUN_RANGE "memscope run"

const char *phase_name(enum phase p);
void nvtx_run_begin(void);
/* A job's range: "<variant> <size>" (product_shape_label: "W=4096", "8192x3072x1024"), its width as payload (0 for
 * a product that is not square, and for a job of no product). */
void nvtx_job_begin(const char *variant, struct product_shape size);
void nvtx_phase_begin(enum phase p, int width);
void nvtx_end(void);

/* A closed range, for a trace: its name, the job ("<variant> W=<width>", "<variant> 8192x3072x1024") it lies in
 * ("" for the run's own and the metric passes), its nesting depth (0: the run) and its ends on the clock
 * nvtx_record_ranges was given. */
struct nvtx_range {
    char name[128];
    char job[128];
    int depth;
    int width;
    uint64_t start_ns, end_ns;
};

/* From now on every range is also kept as it closes, timed by clock (NULL: none kept). */
void nvtx_record_ranges(uint64_t (*clock)(void));
/* The ranges kept so far, in the order they closed; NULL with *count 0 when memory ran out keeping them. */
const struct nvtx_range *nvtx_ranges(size_t *count, int *lost);
void nvtx_ranges_free(void);

#endif
