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
#ifndef MEMSCOPE_COLLECT_H
#define MEMSCOPE_COLLECT_H

#include <stdbool.h>

#include <cuda_runtime_api.h>

#include "../../cupti/range_profiler.h"
#include "../common/error.h"
#include "../gpu/gpu.h"
#include "../results/product_shape.h"
#include "metric_set.h"
#include "profile.h"

struct metrics_collector {
    double setup_ms; /* opening, plus CUPTI's one-time cost on a first, discarded kernel */
    struct prof_session session;
    struct prof_host *host;
    struct prof_config config;
    struct prof_counter_data data; /* room for max_calls calls */
    int max_calls;
    int n_summed;
    const char *summed[MAX_SUMMED]; /* the set's counts left to the source group, tagged in every capture */
};

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
    struct product_shape shape;
    struct profile *out;
};

/* The call's launch, bracketed by g's events: its GPU time, without any emptying of the L2 before it. Every
 * collector that runs a call once more (metric passes, source counters, stall sampling) times it so. */
int profiled_call_timed(const struct profiled_call *call, struct gpu *g, double *gpu_ms, struct error *e);

/* Runs every call under the profiler once per pass, each after emptying the L2, evaluates each call's kernels
 * into its profile, and saves the batch as one capture at capture_path unless it is NULL. */
int metrics_collect(struct metrics_collector *m, struct gpu *g, struct profiled_call *calls, int n_calls,
                    const char *capture_path, struct error *e);

#endif
