/*
 * Collecting hardware metrics in-process: the bridge between cupti/ (which
 * knows nothing of what runs) and the harness. One profiled call may launch
 * several kernels (cuBLAS); each becomes its own entry, under its kernel name.
 *
 * All the metrics form one configuration, and the harness replays the call
 * once per pass it needs, emptying the L2 before each pass as Nsight Compute
 * does. CUPTI's own kernel replay would save and restore device memory
 * around each pass instead, and the write-back of that restore would be
 * counted as the kernel's DRAM traffic. Every profiled call here writes its
 * output without reading it, so running it again changes nothing.
 */
#ifndef MEMSCOPE_METRICS_H
#define MEMSCOPE_METRICS_H

#include <stdbool.h>

#include <cuda_runtime_api.h>

#include "../cupti/capture_file.h"
#include "../cupti/metric_host.h"
#include "../cupti/range_profiler.h"
#include "error.h"
#include "gpu.h"
#include "metric_set.h"

#define MAX_PROFILED_KERNELS PROF_MAX_RANGES
#define METRIC_UNIT_LEN 32

struct kernel_profile {
    char kernel[PROF_KERNEL_NAME_LEN];
    double values[MAX_METRICS];
};

struct profile {
    int n_metrics;
    const char *names[MAX_METRICS]; /* point into the configuration they were collected with */
    char units[MAX_METRICS][METRIC_UNIT_LEN];
    int n_kernels;
    struct kernel_profile kernels[MAX_PROFILED_KERNELS];
    double wall_ms;   /* host time of the whole metric phase */
    double replay_ms; /* GPU time of the profiled calls, every replayed pass included, by CUDA events */
};

struct metrics_collector {
    char chip[32];
    double setup_ms; /* opening, plus CUPTI's one-time cost on a first, discarded kernel */
    struct prof_session session;
    struct prof_host *host;
    struct prof_config config;
    struct prof_counter_data data;
};

/* Maps a cupti/ error to the harness's exit codes. */
int error_from_profiler(struct error *e, const struct prof_error *pe);

/* Validates every name for the device's chip before anything is profiled, then profiles one tiny kernel so
 * that CUPTI's one-time setup is not charged to the first variant. */
int metrics_open(struct metrics_collector *m, struct gpu *g, const struct metric_set *set, struct error *e);
void metrics_close(struct metrics_collector *m);
size_t metrics_passes(const struct metrics_collector *m);
int metrics_count(const struct metrics_collector *m);

typedef int (*profiled_launch)(void *context, struct error *e);

/* Runs launch() (its work on g's stream) under the profiler once per pass, each time after emptying the L2,
 * saves the capture (with tags) as capture_base + ".capture" unless capture_base is NULL, and evaluates it. */
int metrics_collect(struct metrics_collector *m, struct gpu *g, profiled_launch launch, void *context,
                    const char *const tags[][2], int n_tags, const char *capture_base, struct profile *out,
                    struct error *e);

/* Evaluates one counter data image (live, or offline from a capture) into out. kernel_names[i] names range i
 * (NULL: CUPTI's range names). */
int metrics_evaluate(struct prof_host *host, const uint8_t *image, size_t size, const char *const *kernel_names,
                   const struct prof_config *config, struct profile *out, struct error *e);
/* Capture tags "kernel0", "kernel1", ... hold the kernel names of the ranges. */
void metrics_kernel_tag(char *key, size_t len, size_t range);

/* The kernel that ran longest: the one whose metrics head the summary. */
int profile_main_kernel(const struct profile *p);

#endif
