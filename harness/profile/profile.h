/*
 * What profiling one call yields, and how a counter data image is evaluated
 * into it: host work only (CUPTI's host library), shared by the live run and
 * by memscope-decode, which evaluates saved captures on a machine with no GPU.
 */
#ifndef MEMSCOPE_PROFILE_H
#define MEMSCOPE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "../../cupti/metric_host.h"
#include "../../cupti/range_profiler.h"
#include "../common/error.h"
#include "metric_set.h"

#define MAX_PROFILED_KERNELS 8 /* per profiled call */
/* Ranges one call may take in a pass: the two kernels that empty the L2 before it, and its own (cuBLAS
 * launches one or two). Each range costs about 360 KB of counter data (GH100, default metrics). */
#define RANGES_PER_CALL 4
/* Calls in one batch of metric passes, and so in one capture. */
#define MAX_BATCH (PROF_MAX_RANGES / RANGES_PER_CALL)
#define METRIC_UNIT_LEN 32

struct kernel_profile {
    char kernel[PROF_KERNEL_NAME_LEN];
    double values[MAX_METRICS];
};

struct profile {
    int n_metrics;
    const char *names[MAX_METRICS]; /* point into the configuration they were collected with, or the catalog
                                     * (counts summed from the source group, summed_counts.h) */
    char units[MAX_METRICS][METRIC_UNIT_LEN];
    int n_kernels;
    struct kernel_profile kernels[MAX_PROFILED_KERNELS];
    double replay_ms; /* GPU time of the call, every replayed pass included, by CUDA events */
    double wall_ms;   /* replay_ms plus this call's share of the batch's host time, shared equally */
};

/* Maps a cupti/ error to the harness's exit codes. */
int error_from_profiler(struct error *e, const struct prof_error *pe);

/* Evaluates n ranges of a counter data image from range first on (live, or offline from a capture) into out.
 * kernel_names[i] names range first + i (NULL: CUPTI's range name). */
int metrics_evaluate(struct prof_host *host, const uint8_t *image, size_t size, size_t first, int n,
                     const char *const *kernel_names, const struct prof_config *config, struct profile *out,
                     struct error *e);

/* The kernel that ran longest: the one whose metrics head the summary. */
int profile_main_kernel(const struct profile *p);

#endif
