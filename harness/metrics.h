/*
 * Collecting hardware metrics in-process: the bridge between cupti/ (which
 * knows nothing of what runs) and the harness. One profiled call may launch
 * several kernels (cuBLAS); each becomes its own entry, under its kernel name.
 *
 * All the metrics form one configuration, and the harness replays the calls
 * once per pass it needs, emptying the L2 before each call as Nsight Compute
 * does. CUPTI's own kernel replay would save and restore device memory
 * around each pass instead, and the write-back of that restore would be
 * counted as the kernel's DRAM traffic. Every profiled call here writes its
 * output without reading it, so running it again changes nothing.
 *
 * Calls are profiled in batches (all the variants of one width): CUPTI's
 * cost of starting a pass that reads DRAM and L2 counters, about 12 ms on an
 * H100, is then paid once per batch instead of once per call.
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

#define MAX_PROFILED_KERNELS 8 /* per profiled call */
/* Ranges one call may take in a pass: the two kernels that empty the L2 before it, and its own (cuBLAS
 * launches one or two). Each range costs about 360 KB of counter data (GH100, default metrics). */
#define RANGES_PER_CALL 4
#define MAX_BATCH (PROF_MAX_RANGES / RANGES_PER_CALL)
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
    double replay_ms; /* GPU time of the call, every replayed pass included, by CUDA events */
    double wall_ms;   /* replay_ms plus this call's share of the batch's host time, shared equally */
};

struct metrics_collector {
    double setup_ms; /* opening, plus CUPTI's one-time cost on a first, discarded kernel */
    struct prof_session session;
    struct prof_host *host;
    struct prof_config config;
    struct prof_counter_data data; /* room for max_calls calls */
    int max_calls;
};

/* Maps a cupti/ error to the harness's exit codes. */
int error_from_profiler(struct error *e, const struct prof_error *pe);

/* Validates every name for the device's chip before anything is profiled, then profiles one tiny kernel so
 * that CUPTI's one-time setup is not charged to the first variant. Batches hold at most max_calls calls. */
int metrics_open(struct metrics_collector *m, struct gpu *g, const struct metric_set *set, int max_calls,
                 struct error *e);
/* Releases everything; a CUPTI failure on the way is reported in e (unless e already holds one). */
int metrics_close(struct metrics_collector *m, struct error *e);
size_t metrics_passes(const struct metrics_collector *m);
int metrics_count(const struct metrics_collector *m);

typedef int (*profiled_launch)(void *context, struct error *e);

/* One call of a batch: launch(context) does its work on g's stream and waits for it. */
struct profiled_call {
    profiled_launch launch;
    void *context;
    const char *variant, *precision; /* recorded in the capture */
    int width;
    struct profile *out;
};

/* Runs every call under the profiler once per pass, each after emptying the L2, evaluates each call's kernels
 * into its profile, and saves the batch as one capture at capture_path unless it is NULL. */
int metrics_collect(struct metrics_collector *m, struct gpu *g, struct profiled_call *calls, int n_calls,
                    const char *capture_path, struct error *e);

/* Evaluates n ranges of a counter data image from range first on (live, or offline from a capture) into out.
 * kernel_names[i] names range first + i (NULL: CUPTI's range name). */
int metrics_evaluate(struct prof_host *host, const uint8_t *image, size_t size, size_t first, int n,
                     const char *const *kernel_names, const struct prof_config *config, struct profile *out,
                     struct error *e);

/* The capture tags of a batch: "calls" (how many), "call<i>" ("precision width first_range ranges variant", the
 * variant last, since a ground-truth case's name holds spaces),
 * and "range<r>" (the kernel name of each range that belongs to a call; the L2 sweeps between have none). */
void metrics_call_tag(char *key, size_t len, int call);
void metrics_range_tag(char *key, size_t len, size_t range);

/* The kernel that ran longest: the one whose metrics head the summary. */
int profile_main_kernel(const struct profile *p);

#endif
