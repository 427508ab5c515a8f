#include <stdlib.h>
#include <string.h>

#include "../../cupti/metric_host.h"
#include "../common/paths.h"
#include "../gpu/nvtx.h"
#include "../profile/summed_counts.h"
#include "../source/source_rows.h"
#include "../source/source_lines.h"
#include "../stalls/stall_rows.h"
#include "profile_size.h"
#include "trace_run.h"

static int metric_passes(struct job_context *ctx, struct job_result *jobs, int count, struct profiled_call *calls,
                         int n, struct product_shape size, int batch, struct error *e)
{
    char path[PATH_JOINED(PATH_JOINED(PATH_IN_FOLDER_LEN))];
    char text[PRODUCT_SHAPE_LEN];
    snprintf(path, sizeof path, "%s/%02d-W%s.capture", ctx->capture_dir, batch, product_shape_text(size, text));
    nvtx_phase_begin(PHASE_METRICS, product_shape_width(size));
    progress_phase(ctx->progress, phase_name(PHASE_METRICS));
    int rc = metrics_collect(ctx->metrics, ctx->gpu, calls, n, path, e);
    nvtx_end();
    for (int i = 0; i < count; ++i)
        jobs[i].profiled = rc == 0 && jobs[i].kept.p;
    return e->code;
}

/* The function whose totals head the summary: the main kernel of the metric passes, else the one that executed
 * the most instructions. A call's instructions come grouped by function, so each is looked at once. */
static const char *main_function(const struct job_result *r, const struct source_call *call)
{
    const char *best = NULL;
    double most = -1.0;
    for (size_t i = 0; i < call->n; ++i) {
        const char *function = call->instructions[i].function;
        char name[SOURCE_FUNCTION_LEN];
        double totals[LINE_METRIC_COUNT];
        if (i > 0 && strcmp(call->instructions[i - 1].function, function) == 0)
            continue;
        prof_demangle(function, name, sizeof name);
        if (r->profiled && strcmp(name, r->profile.kernels[profile_main_kernel(&r->profile)].kernel) == 0)
            return function;
        source_function_totals(call, function, totals);
        if (totals[LINE_INST_EXECUTED] > most) {
            most = totals[LINE_INST_EXECUTED];
            best = function;
        }
    }
    return best;
}

static int keep_totals(struct job_result *r, const struct source_call *call, const struct source_cost *cost,
                       struct error *e)
{
    const char *function = main_function(r, call);
    r->sourced = function != NULL;
    r->source_cost = *cost;
    if (!function)
        return 0;
    source_function_totals(call, function, r->source_totals);
    return source_finding_lines(call, function, &r->lines, e);
}

static int source_counters(struct job_context *ctx, struct job_result **sourced, struct profiled_call *calls, int n,
                           struct product_shape size, int batch, struct error *e)
{
    static struct source_capture capture;
    struct source_cost *costs = calloc((size_t)n + 1, sizeof *costs);
    char path[PATH_JOINED(PATH_JOINED(PATH_IN_FOLDER_LEN))], text[PRODUCT_SHAPE_LEN];
    snprintf(path, sizeof path, "%s/%02d-W%s.source", ctx->capture_dir, batch, product_shape_text(size, text));
    if (!costs)
        return error_set(e, EXIT_RUNTIME, "out of host memory");
    nvtx_phase_begin(PHASE_SOURCE, product_shape_width(size));
    progress_phase(ctx->progress, phase_name(PHASE_SOURCE));
    source_collect(ctx->source, ctx->gpu, calls, n, &capture, costs, e);
    nvtx_end();
    if (!e->code && source_capture_write(path, &capture, e) == 0 && source_write_rows(ctx->lines, &capture, e) == 0)
        for (int i = 0; i < n && !e->code; ++i)
            if (!ctx->metrics || summed_counts_add(calls[i].out, &capture.calls[i], ctx->metrics->summed,
                                                   ctx->metrics->n_summed, e) == 0)
                keep_totals(sourced[i], &capture.calls[i], &costs[i], e);
    source_capture_free(&capture);
    free(costs);
    return e->code;
}

static int stall_sampling(struct job_context *ctx, struct job_result **sampled, struct profiled_call *calls, int n,
                          struct product_shape size, struct error *e)
{
    struct stall_call *out = calloc((size_t)n + 1, sizeof *out);
    double *median_ms = calloc((size_t)n + 1, sizeof *median_ms);
    if (!out || !median_ms)
        error_set(e, EXIT_RUNTIME, "out of host memory");
    for (int i = 0; i < n && !e->code; ++i)
        median_ms[i] = sampled[i]->timing.stats.median;
    if (!e->code) {
        nvtx_phase_begin(PHASE_STALLS, product_shape_width(size));
        progress_phase(ctx->progress, phase_name(PHASE_STALLS));
        stalls_collect(ctx->stalls, ctx->gpu, calls, median_ms, n, out, e);
        nvtx_end();
    }
    for (int i = 0; i < n && !e->code; ++i) {
        stalls_write_rows(ctx->stalls_csv, &out[i], &ctx->stalls->reasons);
        sampled[i]->sampled = true;
        stall_summarize(&out[i], &ctx->stalls->reasons, &sampled[i]->stalls);
    }
    for (int i = 0; out && i < n; ++i)
        stall_call_free(&out[i]);
    free(out);
    free(median_ms);
    return e->code;
}

/* The size's jobs that kept their operands, as profiled calls; returns how many. */
static int kept_calls(struct job_result *jobs, int count, struct profiled_call *calls, struct job_result **kept)
{
    int n = 0;
    for (int i = 0; i < count; ++i)
        if (jobs[i].kept.p) {
            kept[n] = &jobs[i];
            job_profiled_call(&jobs[i], &calls[n++]);
        }
    return n;
}

/* What is done with a size's kept calls: profiling them, or sampling their stalls. */
typedef int (*kept_work)(struct job_context *ctx, struct job_result *jobs, int count, struct job_result **kept,
                         struct profiled_call *calls, int n, struct product_shape size, int batch, struct error *e);

static int profile_kept(struct job_context *ctx, struct job_result *jobs, int count, struct job_result **kept,
                        struct profiled_call *calls, int n, struct product_shape size, int batch, struct error *e)
{
    if (trace_run_pause(e))
        return e->code;
    if (ctx->source)
        source_start_listings(ctx->source);
    if (ctx->metrics)
        metric_passes(ctx, jobs, count, calls, n, size, batch, e);
    if (ctx->source && !e->code)
        source_counters(ctx, kept, calls, n, size, batch, e);
    trace_run_resume(e);
    return e->code;
}

static int sample_kept(struct job_context *ctx, struct job_result *jobs, int count, struct job_result **kept,
                       struct profiled_call *calls, int n, struct product_shape size, int batch, struct error *e)
{
    (void)jobs, (void)count, (void)batch;
    return stall_sampling(ctx, kept, calls, n, size, e);
}

static int with_kept_calls(struct job_context *ctx, struct job_result *jobs, int count, struct product_shape size,
                           int batch, kept_work work, struct error *e)
{
    struct profiled_call *calls = calloc((size_t)count + 1, sizeof *calls);
    struct job_result **kept = calloc((size_t)count + 1, sizeof *kept);
    int n = calls && kept ? kept_calls(jobs, count, calls, kept) : 0;
    if (!calls || !kept)
        error_set(e, EXIT_RUNTIME, "out of host memory");
    if (n > 0 && !e->code) {
        char label[PRODUCT_SHAPE_LEN];
        progress_job(ctx->progress, ctx->progress->job, "every variant", product_shape_label(size, label));
        work(ctx, jobs, count, kept, calls, n, size, batch, e);
    }
    free(calls);
    free(kept);
    return e->code;
}

int profile_size(struct job_context *ctx, struct job_result *jobs, int count, struct product_shape size, int batch,
                 struct error *e)
{
    return with_kept_calls(ctx, jobs, count, size, batch, profile_kept, e);
}

int sample_stalls_size(struct job_context *ctx, struct job_result *jobs, int count, struct product_shape size,
                       struct error *e)
{
    return with_kept_calls(ctx, jobs, count, size, 0, sample_kept, e);
}
