/*
 * Timing one variant: each sample starts from a cold L2 (flushed on the same
 * stream just before), is bracketed by CUDA events, and sampling stops when
 * the 95 % interval of the mean is within the target, or the budget is spent
 * (but never before the minimum count), or the maximum count is reached.
 */
#ifndef MEMSCOPE_TIMING_H
#define MEMSCOPE_TIMING_H

#include "../../kernels/matmul.h"
#include "../gpu/gpu.h"
#include "progress.h"
#include "../common/stats.h"

struct timing_policy {
    int warmup;            /* untimed launches before sampling */
    int min_samples;       /* always taken, even past the budget */
    int max_samples;       /* never exceeded */
    double target_spread;  /* stop once the 95 % interval of the mean is within this fraction */
    double budget_s;       /* per variant x size, for the timed runs */
};

struct timing {
    double *samples_ms;
    int n;
    const char *stop_reason; /* "converged", "budget" or "max_samples" */
    struct sample_stats stats;
};

int timing_warm_up(struct gpu *g, const struct matmul_variant *v, const struct matmul_operands *ops, int launches,
                   struct error *e);
int timing_sample(struct gpu *g, const struct matmul_variant *v, const struct matmul_operands *ops,
                  const struct timing_policy *policy, struct progress *progress, struct timing *t, struct error *e);
void timing_free(struct timing *t);

#endif
