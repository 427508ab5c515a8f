/*
 * Hardware metrics for the launches the selection takes, as the program runs.
 * On entry to a selected launch the range profiler starts on the launch's
 * context in kernel replay: CUPTI runs the kernel once per pass inside the
 * launch, saving and restoring the device memory it may write around each
 * pass. On return it stops, and the one range is evaluated into the launch's
 * profile with the suite's catalog (profile/).
 *
 * CUPTI's kernel records pause meanwhile (activity.h: beside them the
 * SASS-instrumented counts read 0), so the launch's record is made here, from
 * the call (grid, block, dynamic shared memory; registers and static shared
 * memory from the driver) and from the duration CUPTI measured in its first
 * pass (gpu__time_duration.sum, always collected, as Nsight Compute's
 * Duration is).
 *
 * A launch that cannot be replayed keeps its record and says why; the program
 * runs on. Selected launches are profiled one at a time, whatever thread
 * makes them. In the stall sampling's run (the stalls group alone) they are
 * sampled instead (sampling.h), and keep their activity records.
 */
#ifndef MEMSCOPE_INJECT_REPLAY_H
#define MEMSCOPE_INJECT_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "../../cupti/activity.h"
#include "../profile/profile.h"
#include "config.h"

#define REPLAY_FAILURE_LEN 256

struct replayed_launch {
    struct prof_gpu_op op;   /* its record, made from the call; correlation is the driver call's */
    struct profile profile;  /* one kernel; n_metrics 0 when it could not be replayed */
    char failure[REPLAY_FAILURE_LEN]; /* why not, or "" */
};

/* A selected launch not replayed, and why (collectives.h): its activity record times it. */
struct kept_back {
    uint32_t correlation; /* its call's, which its activity record shares */
    const char *reason;
};

/* Subscribes to the launches: at the first, the program takes the GPU's turn (harness/gpu/gpu_lock.h); with
 * metrics, the selected ones are profiled. */
int replay_start(struct inject_config *c, struct error *e);
/* Stops profiling and hands back the launches replayed, in launch order. */
const struct replayed_launch *replay_stop(size_t *count, struct error *e);
/* The selected launches kept back from replay, in launch order. */
const struct kept_back *replay_kept_back(size_t *count);
/* The UUIDs of the GPUs the process launched on (gpu_lock.h's keys), ","-separated; "" before its first launch. */
const char *replay_gpu_uuids(void);
/* The profiled GPU's name ("NVIDIA H100 80GB HBM3") and chip ("GH100"); "" until a launch was profiled. */
const char *replay_gpu_name(void);
const char *replay_chip(void);
/* The passes CUPTI replays each profiled launch for; 0 until a launch was profiled. */
size_t replay_passes(void);
void replay_free(void);

#endif
