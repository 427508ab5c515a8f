#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/host_clock.h"
#include "../profile/profile.h"
#include "collect.h"
#include "sampling_period.h"

int stalls_open(struct stall_collector *c, const struct gpu *g, struct error *e)
{
    int khz;
    memset(c, 0, sizeof *c);
    line_locator_init(&c->locator);
    c->sms = g->prop.multiProcessorCount;
    CUDA_TRY(e, cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, g->device));
    c->clock_mhz = khz / 1000.0;
    struct prof_error pe = {0};
    struct CUctx_st *ctx;
    if (prof_current_context(&ctx, &pe) == 0 && prof_pcs_open(&c->pcs, ctx, STALL_PERIOD_MIN, &pe) == 0) {
        c->reasons.n = c->pcs.n_reasons;
        memcpy(c->reasons.name, c->pcs.reason, sizeof c->reasons.name);
    }
    return error_from_profiler(e, &pe);
}

int stalls_close(struct stall_collector *c, struct error *e)
{
    struct prof_error pe = {0};
    prof_pcs_close(&c->pcs, &pe);
    return e->code ? e->code : error_from_profiler(e, &pe);
}

static int sampled_run(struct prof_pcs_session *s, struct gpu *g, const struct profiled_call *call, unsigned launches,
                       struct prof_pcs_record **records, size_t *n, struct prof_pcs_totals *totals, double *gpu_ms,
                       struct error *e)
{
    struct prof_error pe = {0};
    *gpu_ms = 0.0;
    if (prof_pcs_begin(s, &pe))
        return error_from_profiler(e, &pe);
    for (unsigned k = 0; k < launches && !e->code; ++k) {
        double ms = 0.0;
        if (profiled_call_timed(call, g, &ms, e) == 0)
            *gpu_ms += ms;
    }
    prof_pcs_end(s, records, n, totals, &pe); /* even after a failed launch: sampling must stop */
    if (e->code || error_from_profiler(e, &pe))
        return e->code;
    /* shares from part of the samples would read as the kernel's */
    if (totals->dropped > 0)
        return error_set(e, EXIT_PROFILER, "PC sampling dropped %llu of %llu samples of %s %s",
                         (unsigned long long)totals->dropped, (unsigned long long)totals->samples, call->variant,
                         product_shape_label(call->shape, (char[PRODUCT_SHAPE_LEN]){0}));
    /* every call runs a kernel long enough to be sampled at the period chosen for it */
    if (*n == 0 && totals->non_user == 0)
        return error_set(e, EXIT_PROFILER, "PC sampling recorded no instruction of %s %s (%llu samples)", call->variant,
                         product_shape_label(call->shape, (char[PRODUCT_SHAPE_LEN]){0}),
                         (unsigned long long)totals->samples);
    return 0;
}

/* Samples `launches` launches of the call, adding what they saw to out. */
static int sample_launches(struct stall_collector *c, struct gpu *g, const struct profiled_call *call,
                           unsigned launches, struct stall_call *out, struct error *e)
{
    struct prof_pcs_record *records = NULL;
    size_t n = 0;
    struct prof_pcs_totals totals = {0};
    double gpu_ms = 0.0;
    if (sampled_run(&c->pcs, g, call, launches, &records, &n, &totals, &gpu_ms, e) == 0) {
        out->totals.samples += totals.samples;
        out->totals.non_user += totals.non_user;
        out->gpu_ms += gpu_ms;
        for (size_t i = 0; i < n && !e->code; ++i) {
            char file[SOURCE_FILE_LEN];
            int line;
            const struct prof_pcs_record *r = &records[i];
            if (line_locate(&c->locator, r->cubin_crc, r->function, r->pc, file, &line, e) != NULL)
                stall_add(out, r->function, file, line, r->samples, c->pcs.n_reasons, e);
        }
    }
    free(records);
    return e->code;
}

/* The planned launches, then more if they gave fewer samples than planned (a grid that leaves SMs without warps
 * gives them no samples). */
static int collect_call(struct stall_collector *c, struct gpu *g, const struct profiled_call *call, unsigned period,
                        unsigned launches, struct stall_call *out, struct error *e)
{
    struct prof_error pe = {0};
    double started = host_seconds();
    snprintf(out->variant, sizeof out->variant, "%s", call->variant);
    snprintf(out->precision, sizeof out->precision, "%s", call->precision);
    out->shape = call->shape;
    if (prof_pcs_set_period(&c->pcs, period, &pe))
        return error_from_profiler(e, &pe);
    out->period_log2 = c->pcs.period_log2;
    if (sample_launches(c, g, call, launches, out, e) == 0) {
        c->period_in_use = c->pcs.period_log2;
        unsigned more = stall_more_launches(launches, out->totals.samples, out->gpu_ms);
        if (more > 0)
            sample_launches(c, g, call, more, out, e);
    }
    out->wall_ms = 1e3 * (host_seconds() - started);
    return e->code;
}

int stalls_collect(struct stall_collector *c, struct gpu *g, const struct profiled_call *calls,
                   const double *median_ms, int n, struct stall_call *out, struct error *e)
{
    unsigned period[STALL_MAX_CALLS], launches[STALL_MAX_CALLS];
    int order[STALL_MAX_CALLS];
    if (n > STALL_MAX_CALLS)
        return error_set(e, EXIT_RUNTIME, "%d calls to sample; at most %d", n, STALL_MAX_CALLS);
    stall_schedule(median_ms, n, c->sms, c->clock_mhz, c->period_in_use, period, launches, order);
    for (int k = 0; k < n && !e->code; ++k)
        collect_call(c, g, &calls[order[k]], period[order[k]], launches[order[k]], &out[order[k]], e);
    return e->code;
}
