#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../kernels/truth.h"
#include "metrics.h"

#define WARM_UP_FLOATS 256

/* Kernels one profiled call may launch before ranges are dropped. Each range costs
 * about 360 KB of counter data (measured on GH100 with the default metrics), and
 * every variant here launches one kernel per call, cuBLAS included. */
#define RANGES_PER_CALL 2

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

int metrics_units(struct prof_host *host, const char *const *names, int n, char units[][METRIC_UNIT_LEN],
                  struct error *e)
{
    struct prof_error pe = {0};
    for (int i = 0; i < n && !pe.status; ++i)
        prof_metric_unit(host, names[i], units[i], METRIC_UNIT_LEN, &pe);
    return error_from_profiler(e, &pe);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
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

static int warm_up(struct metrics_collector *m, cudaStream_t stream, struct error *e)
{
    static struct profile discarded;
    struct warm_up_copy w = {NULL, stream};
    CUDA_TRY(e, cudaMalloc((void **)&w.buffer, 2 * WARM_UP_FLOATS * sizeof(float)));
    CUDA_TRY(e, cudaMemsetAsync(w.buffer, 0, 2 * WARM_UP_FLOATS * sizeof(float), stream));
    metrics_collect(m, launch_warm_up, &w, stream, NULL, 0, NULL, &discarded, e);
    CUDA_RELEASE(e, cudaFree(w.buffer));
    return e->code;
}

int metrics_open(struct metrics_collector *m, int device, cudaStream_t stream, const struct metric_set *set,
                 struct error *e)
{
    struct prof_error pe = {0};
    const char *names[MAX_METRICS];
    double started = now_ms();
    memset(m, 0, sizeof *m);
    for (int i = 0; i < set->n; ++i)
        names[i] = set->names[i];
    if (prof_chip_name(device, m->chip, sizeof m->chip, &pe) == 0 &&
        prof_config_build(m->chip, names, set->n, &m->config, &pe) == 0 &&
        prof_host_open(m->chip, &m->host, &pe) == 0)
        prof_session_open(&m->session, &m->config, RANGES_PER_CALL, &pe);
    if (error_from_profiler(e, &pe))
        return e->code;
    for (int i = 0; i < m->config.n_metrics; ++i) {
        m->names[i] = m->config.metrics[i];
        m->units[i] = m->unit_text[i];
    }
    if (metrics_units(m->host, m->names, m->config.n_metrics, m->unit_text, e) || warm_up(m, stream, e))
        return e->code;
    m->setup_ms = now_ms() - started;
    return 0;
}

void metrics_close(struct metrics_collector *m)
{
    prof_session_close(&m->session);
    prof_host_close(m->host);
    prof_config_free(&m->config);
    memset(m, 0, sizeof *m);
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

void metrics_kernel_tag(char *key, size_t len, size_t range)
{
    snprintf(key, len, "kernel%zu", range);
}

int metrics_evaluate(struct prof_host *host, const uint8_t *counter_data, size_t size, size_t ranges,
                     const char *const *kernel_names, const char *const *names, const char *const *units,
                     int n_metrics, struct profile *out, struct error *e)
{
    struct prof_error pe = {0};
    *out = (struct profile){.n_metrics = n_metrics, .names = names, .units = units};
    if (ranges > MAX_PROFILED_KERNELS)
        return error_set(e, EXIT_RUNTIME, "%zu kernels in one profiled call; at most %d are kept", ranges,
                         MAX_PROFILED_KERNELS);
    for (size_t r = 0; r < ranges && !pe.status; ++r) {
        struct kernel_profile *k = &out->kernels[out->n_kernels++];
        if (kernel_names && kernel_names[r])
            snprintf(k->kernel, sizeof k->kernel, "%s", kernel_names[r]);
        else
            prof_range_name(counter_data, size, r, k->kernel, sizeof k->kernel, &pe);
        if (!pe.status)
            prof_evaluate(host, counter_data, size, r, names, n_metrics, k->values, &pe);
    }
    return error_from_profiler(e, &pe);
}

static void add_tag(struct prof_capture *c, const char *key, const char *value)
{
    if (c->n_tags == CAPTURE_MAX_TAGS)
        return;
    snprintf(c->tag_key[c->n_tags], sizeof c->tag_key[0], "%s", key);
    snprintf(c->tag_value[c->n_tags++], sizeof c->tag_value[0], "%s", value);
}

static int save_capture(struct metrics_collector *m, const char *const tags[][2], int n_tags,
                        const struct profile *p, const char *path, struct error *e)
{
    static struct prof_capture capture;
    capture = (struct prof_capture){.config = m->config,
                                    .counter_data = m->session.counter_data,
                                    .counter_data_size = m->session.counter_data_size};
    struct prof_error pe = {0};
    for (int i = 0; i < n_tags; ++i)
        add_tag(&capture, tags[i][0], tags[i][1]);
    for (int k = 0; k < p->n_kernels; ++k) {
        char key[32];
        metrics_kernel_tag(key, sizeof key, (size_t)k);
        add_tag(&capture, key, p->kernels[k].kernel);
    }
    prof_capture_write(path, &capture, &pe);
    return pe.status ? error_set(e, EXIT_OUTPUT, "%s", pe.message) : 0;
}

/* The launch, bracketed by events: the GPU time of every replayed pass, save and restore included. */
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

int metrics_collect(struct metrics_collector *m, profiled_launch launch, void *context, cudaStream_t stream,
                    const char *const tags[][2], int n_tags, const char *capture_path, struct profile *out,
                    struct error *e)
{
    struct prof_error pe = {0};
    size_t ranges = 0;
    double started = now_ms(), gpu_ms = 0.0;
    if (prof_session_begin(&m->session, &pe))
        return error_from_profiler(e, &pe);
    int launched = timed_launch(launch, context, stream, &gpu_ms, e);
    prof_session_end(&m->session, &ranges, &pe);
    if (launched || error_from_profiler(e, &pe))
        return e->code;
    if (ranges > m->session.launches)
        return error_set(e, EXIT_RUNTIME, "%zu profiled ranges but %zu launches seen", ranges, m->session.launches);
    static char demangled[PROF_MAX_RANGES][PROF_KERNEL_NAME_LEN];
    const char *kernel_names[PROF_MAX_RANGES];
    for (size_t r = 0; r < ranges && r < PROF_MAX_RANGES; ++r) {
        prof_demangle(m->session.kernel_names[r], demangled[r], sizeof demangled[r]);
        kernel_names[r] = demangled[r];
    }
    if (metrics_evaluate(m->host, m->session.counter_data, m->session.counter_data_size, ranges, kernel_names,
                         m->names, m->units, m->config.n_metrics, out, e) ||
        (capture_path && save_capture(m, tags, n_tags, out, capture_path, e)))
        return e->code;
    out->wall_ms = now_ms() - started;
    out->replay_ms = gpu_ms;
    return 0;
}
