#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "metrics.h"

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

int metrics_open(struct metrics_collector *m, int device, const struct metric_set *set, struct error *e)
{
    struct prof_error pe = {0};
    const char *names[MAX_METRICS];
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
    return metrics_units(m->host, m->names, m->config.n_metrics, m->unit_text, e);
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

int metrics_evaluate(struct prof_host *host, const uint8_t *counter_data, size_t size, size_t ranges,
                     const char *const *names, const char *const *units, int n_metrics, struct profile *out,
                     struct error *e)
{
    struct prof_error pe = {0};
    *out = (struct profile){.n_metrics = n_metrics, .names = names, .units = units};
    if (ranges > MAX_PROFILED_KERNELS)
        return error_set(e, EXIT_RUNTIME, "%zu kernels in one profiled call; at most %d are kept", ranges,
                         MAX_PROFILED_KERNELS);
    for (size_t r = 0; r < ranges && !pe.status; ++r) {
        struct kernel_profile *k = &out->kernels[out->n_kernels++];
        if (prof_range_name(counter_data, size, r, k->kernel, sizeof k->kernel, &pe) == 0)
            prof_evaluate(host, counter_data, size, r, names, n_metrics, k->values, &pe);
    }
    return error_from_profiler(e, &pe);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int save_capture(struct metrics_collector *m, const char *const tags[][2], int n_tags, const char *path,
                        struct error *e)
{
    struct prof_capture capture = {.config = m->config,
                                   .counter_data = m->session.counter_data,
                                   .counter_data_size = m->session.counter_data_size};
    struct prof_error pe = {0};
    for (int i = 0; i < n_tags && i < CAPTURE_MAX_TAGS; ++i) {
        snprintf(capture.tag_key[i], sizeof capture.tag_key[i], "%s", tags[i][0]);
        snprintf(capture.tag_value[i], sizeof capture.tag_value[i], "%s", tags[i][1]);
        capture.n_tags++;
    }
    prof_capture_write(path, &capture, &pe);
    return pe.status ? error_set(e, EXIT_OUTPUT, "%s", pe.message) : 0;
}

static double replay_ms(const struct profile *p, size_t passes)
{
    double ns = 0.0;
    for (int k = 0; k < p->n_kernels; ++k)
        ns += metric_lookup(p->names, p->kernels[k].values, p->n_metrics, "gpu__time_duration.sum");
    return isnan(ns) ? NAN : ns * 1e-6 * (double)passes;
}

int metrics_collect(struct metrics_collector *m, profiled_launch launch, void *context, const char *const tags[][2],
                    int n_tags, const char *capture_path, struct profile *out, struct error *e)
{
    struct prof_error pe = {0};
    size_t ranges = 0;
    double started = now_ms();
    if (prof_session_begin(&m->session, &pe))
        return error_from_profiler(e, &pe);
    int launched = launch(context, e);
    prof_session_end(&m->session, &ranges, &pe);
    if (launched || error_from_profiler(e, &pe))
        return e->code;
    if (metrics_evaluate(m->host, m->session.counter_data, m->session.counter_data_size, ranges, m->names, m->units,
                         m->config.n_metrics, out, e) ||
        save_capture(m, tags, n_tags, capture_path, e))
        return e->code;
    out->wall_ms = now_ms() - started;
    out->replay_ms = replay_ms(out, m->config.passes);
    return 0;
}
