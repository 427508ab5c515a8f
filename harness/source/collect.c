#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/host_clock.h"
#include "collect.h"

int source_open(struct source_collector *c, struct gpu *g, struct error *e)
{
    struct prof_error pe = {0};
    const char *names[SASS_METRIC_COUNT];
    double started = host_seconds();
    memset(c, 0, sizeof *c);
    for (int m = 0; m < SASS_METRIC_COUNT; ++m)
        names[m] = sass_metric_name(m);
    source_placer_init(&c->placer);
    struct CUctx_st *ctx;
    if (prof_chip_name(g->device, c->chip, sizeof c->chip, &pe) == 0 && prof_current_context(&ctx, &pe) == 0)
        prof_sass_open(&c->sass, ctx, g->device, c->chip, names, SASS_METRIC_COUNT, &pe);
    c->setup_ms = 1e3 * (host_seconds() - started);
    return error_from_profiler(e, &pe);
}

int source_close(struct source_collector *c, struct error *e)
{
    struct prof_error pe = {0};
    if (c->sass.n_metrics)
        prof_sass_close(&c->sass, &pe);
    source_placer_free(&c->placer);
    memset(c, 0, sizeof *c);
    return error_from_profiler(e, &pe);
}

void source_start_listings(struct source_collector *c)
{
    source_placer_start_listings(&c->placer);
}

static int patched_run(struct source_collector *c, struct gpu *g, const struct profiled_call *call,
                       struct prof_sass_record **records, size_t *n, double *gpu_ms, struct error *e)
{
    struct prof_error pe = {0};
    *gpu_ms = 0.0;
    if (prof_sass_begin(&c->sass, &pe))
        return error_from_profiler(e, &pe);
    profiled_call_timed(call, g, gpu_ms, e);
    prof_sass_end(&c->sass, records, n, &pe); /* even after a failed launch: patching must end */
    if (e->code || error_from_profiler(e, &pe))
        return e->code;
    if (c->sass.long_named) /* a call may run several kernels: cut names could merge */
        return error_set(e, EXIT_PROFILER, "a kernel name of %zu characters or more: memscope keeps %zu",
                         sizeof (*records)->function, sizeof (*records)->function - 1);
    if (*n == 0) /* every call runs a kernel: no record means the collection failed, not an empty kernel */
        return error_set(e, EXIT_PROFILER, "CUPTI's SASS metrics recorded no instruction of %s %s", call->variant,
                         product_shape_label(call->shape, (char[PRODUCT_SHAPE_LEN]){0}));
    return 0;
}

static int collect_call(struct source_collector *c, struct gpu *g, const struct profiled_call *call,
                        struct source_capture *capture, struct source_cost *cost, struct error *e)
{
    struct prof_sass_record *records = NULL;
    size_t n = 0;
    double started = host_seconds();
    struct source_call *out = source_add_call(capture, e);
    if (!out)
        return e->code;
    snprintf(out->variant, sizeof out->variant, "%s", call->variant);
    snprintf(out->precision, sizeof out->precision, "%s", call->precision);
    out->shape = call->shape;
    if (patched_run(c, g, call, &records, &n, &cost->gpu_ms, e) == 0)
        for (size_t i = 0; i < n && !e->code; ++i)
            source_place(&c->placer, &records[i], records[i].function, capture, out, e);
    free(records);
    cost->wall_ms = 1e3 * (host_seconds() - started);
    return e->code;
}

int source_collect(struct source_collector *c, struct gpu *g, const struct profiled_call *calls, int n,
                   struct source_capture *capture, struct source_cost *cost, struct error *e)
{
    snprintf(capture->chip, sizeof capture->chip, "%s", c->chip);
    capture->metrics_named = SASS_METRIC_COUNT;
    source_start_listings(c);
    for (int i = 0; i < n && !e->code; ++i)
        collect_call(c, g, &calls[i], capture, &cost[i], e);
    return e->code;
}
