#include <stdlib.h>

#include "../common/host_clock.h"
#include "launch.h"
#include "timing.h"

int timing_warm_up(struct gpu *g, const struct matmul_variant *v, const struct matmul_operands *ops, int launches,
                   struct error *e)
{
    for (int i = 0; i < launches; ++i)
        if (launch_variant(v, ops, e))
            return e->code;
    CUDA_TRY(e, cudaStreamSynchronize(g->stream));
    return 0;
}

static int one_sample(struct gpu *g, const struct matmul_variant *v, const struct matmul_operands *ops, double *ms,
                      struct error *e)
{
    float elapsed;
    if (gpu_flush_l2(g, e))
        return e->code;
    CUDA_TRY(e, cudaEventRecord(g->start, g->stream));
    if (launch_variant(v, ops, e))
        return e->code;
    CUDA_TRY(e, cudaEventRecord(g->stop, g->stream));
    CUDA_TRY(e, cudaEventSynchronize(g->stop));
    CUDA_TRY(e, cudaEventElapsedTime(&elapsed, g->start, g->stop));
    *ms = elapsed;
    return 0;
}

static const char *stop_reason(const struct timing_policy *p, const struct running_stats *r, double spent_s)
{
    if (r->n >= p->max_samples)
        return "max_samples";
    if (r->n < p->min_samples)
        return NULL;
    if (running_ci95_rel(r) <= p->target_spread)
        return "converged";
    if (spent_s >= p->budget_s)
        return "budget";
    return NULL;
}

int timing_sample(struct gpu *g, const struct matmul_variant *v, const struct matmul_operands *ops,
                  const struct timing_policy *policy, struct progress *progress, struct timing *t, struct error *e)
{
    *t = (struct timing){0};
    t->samples_ms = malloc((size_t)policy->max_samples * sizeof *t->samples_ms);
    if (!t->samples_ms)
        return error_set(e, EXIT_RUNTIME, "out of host memory for %d samples", policy->max_samples);
    struct running_stats running = {0};
    double started = host_seconds();
    while (!t->stop_reason) {
        if (one_sample(g, v, ops, &t->samples_ms[t->n], e))
            return e->code;
        running_add(&running, t->samples_ms[t->n++]);
        progress_samples(progress, t->n, running_ci95_rel(&running));
        t->stop_reason = stop_reason(policy, &running, host_seconds() - started);
    }
    if (stats_compute(t->samples_ms, t->n, &t->stats) != 0)
        return error_set(e, EXIT_RUNTIME, "out of host memory for statistics");
    return 0;
}

void timing_free(struct timing *t)
{
    free(t->samples_ms);
    *t = (struct timing){0};
}
