#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../kernels/truth/truth.h"
#include "../common/host_clock.h"
#include "../results/capture_tags.h"
#include "collect.h"

#define WARM_UP_FLOATS 256

struct warm_up_copy {
    float *buffer;
    cudaStream_t stream;
};

static int launch_warm_up(void *context, struct error *e)
{
    const struct warm_up_copy *w = context;
    const char *why = truth_strided_copy(w->buffer, w->buffer + WARM_UP_FLOATS, WARM_UP_FLOATS, 1, 0, w->stream);
    if (why)
        return error_set(e, EXIT_RUNTIME, "profiler warm-up launch: %s", why);
    CUDA_TRY(e, cudaStreamSynchronize(w->stream));
    return 0;
}

static int warm_up(struct metrics_collector *m, struct gpu *g, struct error *e)
{
    static struct profile discarded;
    struct warm_up_copy w = {NULL, g->stream};
    struct profiled_call call = {launch_warm_up, &w, "warm-up", "fp32", PRODUCT_SHAPE_NONE, &discarded};
    CUDA_TRY(e, cudaMalloc((void **)&w.buffer, 2 * WARM_UP_FLOATS * sizeof(float)));
    cudaError_t rc = cudaMemsetAsync(w.buffer, 0, 2 * WARM_UP_FLOATS * sizeof(float), g->stream);
    if (rc != cudaSuccess)
        error_set(e, EXIT_RUNTIME, "cudaMemsetAsync for the profiler warm-up: %s", cudaGetErrorString(rc));
    else
        metrics_collect(m, g, &call, 1, NULL, e);
    CUDA_RELEASE(e, cudaFree(w.buffer));
    return e->code;
}

int metrics_open(struct metrics_collector *m, struct gpu *g, const struct metric_set *set, int max_calls,
                 struct error *e)
{
    struct prof_error pe = {0};
    double started = host_seconds();
    const char *names[MAX_METRICS];
    char chip[sizeof m->config.chip];
    struct CUctx_st *ctx;
    memset(m, 0, sizeof *m);
    if (max_calls < 1 || max_calls > MAX_BATCH)
        return error_set(e, EXIT_USAGE, "%d calls in one profiled batch; at most %d", max_calls, MAX_BATCH);
    m->max_calls = max_calls;
    m->n_summed = set->n_summed;
    memcpy(m->summed, set->summed, sizeof m->summed);
    for (int i = 0; i < set->n; ++i)
        names[i] = set->names[i];
    if (prof_chip_name(g->device, chip, sizeof chip, &pe) == 0 && prof_host_open(chip, &m->host, &pe) == 0 &&
        prof_current_context(&ctx, &pe) == 0 &&
        prof_session_open(&m->session, ctx, (size_t)max_calls * RANGES_PER_CALL, PROF_USER_REPLAY, &pe) == 0 &&
        prof_config_build(m->host, names, set->n, &m->config, &pe) == 0)
        prof_counter_data_create(&m->session, &m->config, &m->data, &pe);
    if (error_from_profiler(e, &pe) || warm_up(m, g, e))
        return e->code;
    m->setup_ms = 1e3 * (host_seconds() - started);
    return 0;
}

int metrics_close(struct metrics_collector *m, struct error *e)
{
    struct prof_error pe = {0};
    prof_counter_data_free(&m->data);
    prof_config_free(&m->config);
    prof_session_close(&m->session, &pe);
    prof_host_close(m->host, &pe);
    memset(m, 0, sizeof *m);
    return error_from_profiler(e, &pe);
}

size_t metrics_passes(const struct metrics_collector *m)
{
    return m->config.passes;
}

int metrics_count(const struct metrics_collector *m)
{
    return m->config.n_metrics;
}

/* Where one call's kernels lie among a pass's ranges, and its GPU time over every pass. */
struct call_span {
    size_t first, count;
    double replay_ms;
};

static int save_capture(const struct metrics_collector *m, const struct profiled_call *calls, int n_calls,
                        const struct call_span *spans, const char *path, struct error *e)
{
    static struct prof_capture capture;
    static struct tagged_call tagged[MAX_BATCH];
    _Static_assert(MAX_PROFILED_KERNELS == TAGGED_CALL_MAX_KERNELS, "a capture names every kernel of a call");
    capture = (struct prof_capture){.config = m->config, .counter_data = m->data.image,
                                    .counter_data_size = m->data.size};
    for (int i = 0; i < n_calls; ++i) {
        tagged[i] =
            (struct tagged_call){.shape = calls[i].shape, .first_range = spans[i].first, .ranges = spans[i].count};
        snprintf(tagged[i].precision, sizeof tagged[i].precision, "%s", calls[i].precision);
        snprintf(tagged[i].variant, sizeof tagged[i].variant, "%s", calls[i].variant);
        for (int k = 0; k < calls[i].out->n_kernels; ++k)
            tagged[i].kernels[k] = calls[i].out->kernels[k].kernel;
    }
    return capture_tags_save(path, &capture, tagged, n_calls, m->summed, m->n_summed, e);
}

int profiled_call_timed(const struct profiled_call *call, struct gpu *g, double *gpu_ms, struct error *e)
{
    float ms;
    CUDA_TRY(e, cudaEventRecord(g->start, g->stream));
    if (call->launch(call->context, e))
        return e->code;
    CUDA_TRY(e, cudaEventRecord(g->stop, g->stream));
    CUDA_TRY(e, cudaEventSynchronize(g->stop));
    CUDA_TRY(e, cudaEventElapsedTime(&ms, g->start, g->stop));
    *gpu_ms = ms;
    return 0;
}

/* One call in a pass: an empty L2 (its two kernels are ranges of their own), then the call's kernels, which
 * must take the same ranges in every pass for the ranges to be attributed. */
static int profile_call(struct metrics_collector *m, struct gpu *g, const struct profiled_call *call, size_t pass,
                        struct call_span *span, struct error *e)
{
    double ms = 0.0;
    if (gpu_flush_l2(g, e))
        return e->code;
    size_t first = m->session.launches;
    if (profiled_call_timed(call, g, &ms, e))
        return e->code;
    size_t count = m->session.launches - first;
    if (pass > 0 && (first != span->first || count != span->count))
        return error_set(e, EXIT_RUNTIME,
                         "%s %s launched %zu kernel(s) from range %zu in pass %zu, %zu from %zu before", call->variant,
                         product_shape_label(call->shape, (char[PRODUCT_SHAPE_LEN]){0}), count, first, pass + 1,
                         span->count, span->first);
    *span = (struct call_span){first, count, span->replay_ms + ms};
    return 0;
}

static int profile_pass(struct metrics_collector *m, struct gpu *g, const struct profiled_call *calls, int n_calls,
                        size_t pass, struct call_span *spans, bool *all_passes_done, struct error *e)
{
    struct prof_error pe = {0};
    if (prof_pass_begin(&m->session, &pe))
        return error_from_profiler(e, &pe);
    for (int i = 0; i < n_calls && !e->code; ++i)
        profile_call(m, g, &calls[i], pass, &spans[i], e);
    prof_pass_end(&m->session, all_passes_done, &pe);
    return e->code ? e->code : error_from_profiler(e, &pe);
}

/* Every pass the configuration needs; CUPTI says when it has them all. */
static int profile_passes(struct metrics_collector *m, struct gpu *g, const struct profiled_call *calls,
                          int n_calls, struct call_span *spans, struct error *e)
{
    struct prof_error pe = {0};
    bool done = false;
    if (prof_session_begin(&m->session, &m->data, &pe))
        return error_from_profiler(e, &pe);
    for (size_t pass = 0; !done; ++pass) {
        if (pass == m->config.passes)
            return error_set(e, EXIT_RUNTIME, "CUPTI wants more than the %zu passes the configuration has",
                             m->config.passes);
        if (profile_pass(m, g, calls, n_calls, pass, spans, &done, e))
            return e->code;
    }
    return 0;
}

static int evaluate_calls(struct metrics_collector *m, struct profiled_call *calls, int n_calls,
                          const struct call_span *spans, struct error *e)
{
    static char demangled[PROF_MAX_RANGES][PROF_KERNEL_NAME_LEN];
    const char *kernel_names[PROF_MAX_RANGES];
    for (size_t r = 0; r < m->session.launches && r < PROF_MAX_RANGES; ++r) {
        prof_demangle(m->session.kernel_names[r], demangled[r], sizeof demangled[r]);
        kernel_names[r] = demangled[r];
    }
    for (int i = 0; i < n_calls && !e->code; ++i)
        metrics_evaluate(m->host, m->data.image, m->data.size, spans[i].first, (int)spans[i].count,
                         kernel_names + spans[i].first, &m->config, calls[i].out, e);
    return e->code;
}

int metrics_collect(struct metrics_collector *m, struct gpu *g, struct profiled_call *calls, int n_calls,
                    const char *capture_path, struct error *e)
{
    struct prof_error pe = {0};
    struct call_span spans[MAX_BATCH] = {{0}};
    size_t ranges = 0;
    double started = host_seconds(), replay_ms = 0.0;
    if (n_calls < 1 || n_calls > m->max_calls)
        return error_set(e, EXIT_RUNTIME, "%d calls in one profiled batch; the profiler was opened for %d", n_calls,
                         m->max_calls);
    if (profile_passes(m, g, calls, n_calls, spans, e))
        return e->code;
    if (prof_session_end(&m->session, &m->data, &ranges, &pe))
        return error_from_profiler(e, &pe);
    if (ranges != m->session.launches)
        return error_set(e, EXIT_RUNTIME, "%zu profiled ranges but %zu launches seen", ranges, m->session.launches);
    if (evaluate_calls(m, calls, n_calls, spans, e) ||
        (capture_path && save_capture(m, calls, n_calls, spans, capture_path, e)))
        return e->code;
    for (int i = 0; i < n_calls; ++i)
        replay_ms += spans[i].replay_ms;
    double share = (1e3 * (host_seconds() - started) - replay_ms) / n_calls;
    for (int i = 0; i < n_calls; ++i) {
        calls[i].out->replay_ms = spans[i].replay_ms;
        calls[i].out->wall_ms = spans[i].replay_ms + share;
    }
    return 0;
}
