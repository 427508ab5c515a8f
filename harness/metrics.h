/*
 * Collecting hardware metrics in-process: the bridge between cupti/ (which
 * knows nothing of what runs) and the harness. One profiled call may launch
 * several kernels (cuBLAS); each becomes its own entry, under its kernel name.
 *
 * The metrics are collected in up to two parts, each its own profiled call
 * after the L2 is swept: DRAM bytes and duration in a single pass, and all
 * the others, replayed over as many passes as they need. Kernel replay
 * restores device memory between passes, and the dirty lines of that restore
 * would be written back during a later pass and counted as the kernel's DRAM
 * traffic; a single pass has no restore.
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
#define MAX_METRIC_PARTS 2

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

struct metric_part {
    const char *capture_suffix;
    struct prof_config config;
    struct prof_counter_data data;
};

struct metrics_collector {
    char chip[32];
    double setup_ms; /* opening, plus CUPTI's one-time cost on a first, discarded kernel */
    struct prof_session session;
    struct prof_host *host;
    int n_parts;
    struct metric_part parts[MAX_METRIC_PARTS];
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

/* Runs launch() (its work on g's stream) under the profiler once per part, saves each part's capture (with
 * tags) as capture_base + suffix unless capture_base is NULL, and evaluates them into one profile. */
int metrics_collect(struct metrics_collector *m, struct gpu *g, profiled_launch launch, void *context,
                    const char *const tags[][2], int n_tags, const char *capture_base, struct profile *out,
                    struct error *e);

/* Evaluates one counter data image (live, or offline from a capture) and appends its metrics to out; ranges
 * must match the kernels already in out. kernel_names[i] names range i (NULL: CUPTI's range names). */
int metrics_append(struct prof_host *host, const uint8_t *image, size_t size, const char *const *kernel_names,
                   const struct prof_config *config, struct profile *out, struct error *e);
/* Capture tags "kernel0", "kernel1", ... hold the kernel names of the ranges. */
void metrics_kernel_tag(char *key, size_t len, size_t range);

/* The kernel that ran longest: the one whose metrics head the summary. */
int profile_main_kernel(const struct profile *p);

#endif
