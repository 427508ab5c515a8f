#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../kernels/truth.h"
#include "metrics.h"

/* Each range costs about 360 KB of counter data (GH100, default metrics); every variant here launches one
 * kernel per call, cuBLAS included. */
#define RANGES_PER_CALL 2
#define WARM_UP_FLOATS 256

int error_from_profiler(struct error *e, const struct prof_error *pe)
{
    switch (pe->status) {
    case PROF_OK:
        return 0;
    case PROF_UNKNOWN_METRIC:
    case PROF_BAD_CAPTURE:
        return error_set(e, EXIT_USAGE, "%s", pe->message);
    case PROF_NO_PERMISSION:
    case PROF_UNSUPPORTED_CHIP:
        return error_set(e, EXIT_PROFILER, "%s", pe->message);
    default:
        return error_set(e, EXIT_RUNTIME, "%s", pe->message);
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

void metrics_kernel_tag(char *key, size_t len, size_t range)
{
    snprintf(key, len, "kernel%zu", range);
}

int profile_main_kernel(const struct profile *p)
{
    int best = 0;
    double longest = -1.0;
    for (int k = 0; k < p->n_kernels; ++k) {
        double ns = metric_lookup(p->names, p->kernels[k].values, p->n_metrics, "gpu__time_duration.sum");
        if (ns > longest) {
            longest = ns;
            best = k;
        }
    }
    return best;
}

static int name_kernels(struct profile *out, const char *const *kernel_names, const uint8_t *image, size_t size,
                        struct prof_error *pe)
{
    for (int r = 0; r < out->n_kernels && !pe->status; ++r) {
        char *name = out->kernels[r].kernel;
        if (kernel_names && kernel_names[r])
            snprintf(name, PROF_KERNEL_NAME_LEN, "%s", kernel_names[r]);
        else
            prof_range_name(image, size, (size_t)r, name, PROF_KERNEL_NAME_LEN, pe);
    }
    return pe->status;
}

int metrics_evaluate(struct prof_host *host, const uint8_t *image, size_t size, const char *const *kernel_names,
                     const struct prof_config *config, struct profile *out, struct error *e)
{
    struct prof_error pe = {0};
    size_t ranges = 0;
    memset(out, 0, sizeof *out);
    if (config->n_metrics > MAX_METRICS)
        return error_set(e, EXIT_USAGE, "more than %d metrics", MAX_METRICS);
    if (prof_range_count(image, size, &ranges, &pe))
        return error_from_profiler(e, &pe);
    if (ranges > MAX_PROFILED_KERNELS)
        return error_set(e, EXIT_RUNTIME, "%zu kernels in one profiled call; at most %d are kept", ranges,
                         MAX_PROFILED_KERNELS);
    out->n_kernels = (int)ranges;
    name_kernels(out, kernel_names, image, size, &pe);
    for (int i = 0; i < config->n_metrics && !pe.status; ++i) {
        out->names[i] = config->metrics[i];
        prof_metric_unit(host, config->metrics[i], out->units[i], METRIC_UNIT_LEN, &pe);
    }
    for (size_t r = 0; r < ranges && !pe.status; ++r)
        prof_evaluate(host, image, size, r, (const char *const *)config->metrics, config->n_metrics,
                      out->kernels[r].values, &pe);
    if (!pe.status)
        out->n_metrics = config->n_metrics;
    return error_from_profiler(e, &pe);
}

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
    CUDA_TRY(e, cudaMalloc((void **)&w.buffer, 2 * WARM_UP_FLOATS * sizeof(float)));
    CUDA_TRY(e, cudaMemsetAsync(w.buffer, 0, 2 * WARM_UP_FLOATS * sizeof(float), g->stream));
    metrics_collect(m, g, launch_warm_up, &w, NULL, 0, NULL, &discarded, e);
    CUDA_RELEASE(e, cudaFree(w.buffer));
    return e->code;
}

int metrics_open(struct metrics_collector *m, struct gpu *g, const struct metric_set *set, struct error *e)
{
    struct prof_error pe = {0};
    double started = now_ms();
    const char *names[MAX_METRICS];
    memset(m, 0, sizeof *m);
    for (int i = 0; i < set->n; ++i)
        names[i] = set->names[i];
    if (prof_chip_name(g->device, m->chip, sizeof m->chip, &pe) == 0 &&
        prof_host_open(m->chip, &m->host, &pe) == 0 && prof_session_open(&m->session, RANGES_PER_CALL, &pe) == 0 &&
        prof_config_build(m->chip, names, set->n, &m->config, &pe) == 0)
        prof_counter_data_create(&m->session, &m->config, &m->data, &pe);
    if (error_from_profiler(e, &pe) || warm_up(m, g, e))
        return e->code;
    m->setup_ms = now_ms() - started;
    return 0;
}

void metrics_close(struct metrics_collector *m)
{
    prof_counter_data_free(&m->data);
    prof_config_free(&m->config);
    prof_session_close(&m->session);
    prof_host_close(m->host);
    memset(m, 0, sizeof *m);
}

size_t metrics_passes(const struct metrics_collector *m)
{
    return m->config.passes;
}

int metrics_count(const struct metrics_collector *m)
{
    return m->config.n_metrics;
}

static void add_tag(struct prof_capture *c, const char *key, const char *value)
{
    if (c->n_tags == CAPTURE_MAX_TAGS)
        return;
    snprintf(c->tag_key[c->n_tags], sizeof c->tag_key[0], "%s", key);
    snprintf(c->tag_value[c->n_tags++], sizeof c->tag_value[0], "%s", value);
}

static int save_capture(const struct metrics_collector *m, const char *const tags[][2], int n_tags,
                        const struct profile *p, const char *base, struct error *e)
{
    static struct prof_capture capture;
    char path[4400];
    struct prof_error pe = {0};
    capture = (struct prof_capture){.config = m->config, .counter_data = m->data.image,
                                    .counter_data_size = m->data.size};
    for (int i = 0; i < n_tags; ++i)
        add_tag(&capture, tags[i][0], tags[i][1]);
    for (int k = 0; k < p->n_kernels; ++k) {
        char key[32];
        metrics_kernel_tag(key, sizeof key, (size_t)k);
        add_tag(&capture, key, p->kernels[k].kernel);
    }
    snprintf(path, sizeof path, "%s.capture", base);
    prof_capture_write(path, &capture, &pe);
    return pe.status ? error_set(e, EXIT_OUTPUT, "%s", pe.message) : 0;
}

/* The launch, bracketed by events: the GPU time of one pass, without the emptying of the L2 before it. */
static int timed_launch(profiled_launch launch, void *context, cudaStream_t stream, double *gpu_ms, struct error *e)
{
    cudaEvent_t start, stop;
    float ms = 0.0f;
    CUDA_TRY(e, cudaEventCreate(&start));
    CUDA_TRY(e, cudaEventCreate(&stop));
    CUDA_TRY(e, cudaEventRecord(start, stream));
    if (launch(context, e) == 0) {
        CUDA_TRY(e, cudaEventRecord(stop, stream));
        CUDA_TRY(e, cudaEventSynchronize(stop));
        CUDA_TRY(e, cudaEventElapsedTime(&ms, start, stop));
    }
    CUDA_RELEASE(e, cudaEventDestroy(start));
    CUDA_RELEASE(e, cudaEventDestroy(stop));
    *gpu_ms = ms;
    return e->code;
}

/* One pass: an empty L2, then the launch under the profiler. */
static int profile_pass(struct metrics_collector *m, struct gpu *g, profiled_launch launch, void *context,
                        bool *all_passes_done, double *gpu_ms, struct error *e)
{
    struct prof_error pe = {0};
    if (gpu_flush_l2_and_wait(g, e))
        return e->code;
    if (prof_pass_begin(&m->session, &pe))
        return error_from_profiler(e, &pe);
    int launched = timed_launch(launch, context, g->stream, gpu_ms, e);
    prof_pass_end(&m->session, all_passes_done, &pe);
    return launched ? e->code : error_from_profiler(e, &pe);
}

/* Every pass the configuration needs; CUPTI says when it has them all. */
static int profile_passes(struct metrics_collector *m, struct gpu *g, profiled_launch launch, void *context,
                          double *replay_ms, struct error *e)
{
    struct prof_error pe = {0};
    bool done = false;
    if (prof_session_begin(&m->session, &m->data, &pe))
        return error_from_profiler(e, &pe);
    for (size_t pass = 0; !done; ++pass) {
        double gpu_ms = 0.0;
        if (pass == m->config.passes)
            return error_set(e, EXIT_RUNTIME, "CUPTI wants more than the %zu passes the configuration has",
                             m->config.passes);
        if (profile_pass(m, g, launch, context, &done, &gpu_ms, e))
            return e->code;
        *replay_ms += gpu_ms;
    }
    return 0;
}

int metrics_collect(struct metrics_collector *m, struct gpu *g, profiled_launch launch, void *context,
                    const char *const tags[][2], int n_tags, const char *capture_base, struct profile *out,
                    struct error *e)
{
    struct prof_error pe = {0};
    size_t ranges = 0;
    double started = now_ms(), replay_ms = 0.0;
    static char demangled[PROF_MAX_RANGES][PROF_KERNEL_NAME_LEN];
    const char *kernel_names[PROF_MAX_RANGES];
    if (profile_passes(m, g, launch, context, &replay_ms, e))
        return e->code;
    if (prof_session_end(&m->session, &m->data, &ranges, &pe))
        return error_from_profiler(e, &pe);
    if (ranges > m->session.launches)
        return error_set(e, EXIT_RUNTIME, "%zu profiled ranges but %zu launches seen", ranges, m->session.launches);
    for (size_t r = 0; r < ranges; ++r) {
        prof_demangle(m->session.kernel_names[r], demangled[r], sizeof demangled[r]);
        kernel_names[r] = demangled[r];
    }
    if (metrics_evaluate(m->host, m->data.image, m->data.size, kernel_names, &m->config, out, e) ||
        (capture_base && save_capture(m, tags, n_tags, out, capture_base, e)))
        return e->code;
    out->wall_ms = now_ms() - started;
    out->replay_ms = replay_ms;
    return 0;
}
