/*
 * Collecting hardware metrics in-process: the bridge between cupti/ (which
 * knows nothing of what runs) and the harness. One profiled call may launch
 * several kernels (cuBLAS); each becomes its own entry, under its kernel name.
 */
#ifndef MEMSCOPE_METRICS_H
#define MEMSCOPE_METRICS_H

#include <stdbool.h>

#include <cuda_runtime_api.h>

#include "../cupti/capture_file.h"
#include "../cupti/metric_host.h"
#include "../cupti/range_profiler.h"
#include "error.h"
#include "metric_set.h"

#define MAX_PROFILED_KERNELS 8
#define METRIC_UNIT_LEN 32

struct kernel_profile {
    char kernel[192];
    double values[MAX_METRICS];
};

struct profile {
    int n_metrics;
    const char *const *names; /* owned by whoever produced the profile; lives as long as it */
    const char *const *units;
    int n_kernels;
    struct kernel_profile kernels[MAX_PROFILED_KERNELS];
    double wall_ms;   /* host time of the whole metric phase */
    double replay_ms; /* GPU time of the replayed passes (instrumented ones run slower), by CUDA events */
};

struct metrics_collector {
    char chip[32];
    double setup_ms; /* opening, plus CUPTI's one-time cost on the first profiled kernel */
    struct prof_config config;
    struct prof_session session;
    struct prof_host *host;
    const char *names[MAX_METRICS];
    char unit_text[MAX_METRICS][METRIC_UNIT_LEN];
    const char *units[MAX_METRICS];
};

/* Maps a cupti/ error to the harness's exit codes. */
int error_from_profiler(struct error *e, const struct prof_error *pe);

/* Validates every name for the device's chip before anything is profiled, then profiles one tiny kernel so
 * that CUPTI's one-time setup is not charged to the first variant. */
int metrics_open(struct metrics_collector *m, int device, cudaStream_t stream, const struct metric_set *set,
                 struct error *e);
void metrics_close(struct metrics_collector *m);

typedef int (*profiled_launch)(void *context, struct error *e);

/* Runs launch() (work on stream) once under the profiler, saves the capture (with tags) to capture_path unless
 * it is NULL, and evaluates it. */
int metrics_collect(struct metrics_collector *m, profiled_launch launch, void *context, cudaStream_t stream,
                    const char *const tags[][2], int n_tags, const char *capture_path, struct profile *out,
                    struct error *e);

/* Evaluates a counter data image into a profile (used live and by offline decoding); kernel_names[i] names
 * range i (NULL: CUPTI's range names, which are only numbers under auto range). */
int metrics_evaluate(struct prof_host *host, const uint8_t *counter_data, size_t size, size_t ranges,
                     const char *const *kernel_names, const char *const *names, const char *const *units,
                     int n_metrics, struct profile *out, struct error *e);
/* Capture tags "kernel0", "kernel1", ... hold the kernel names of the ranges. */
void metrics_kernel_tag(char *key, size_t len, size_t range);
int metrics_units(struct prof_host *host, const char *const *names, int n, char units[][METRIC_UNIT_LEN],
                  struct error *e);

/* The kernel that ran longest: the one whose metrics head the summary. */
int profile_main_kernel(const struct profile *p);

#endif
