#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profile.h"

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
    case PROF_TAKEN:
        return error_set(e, EXIT_PROFILER, "%s", pe->message);
    case PROF_BUSY:
        return error_set(e, EXIT_BUSY, "%s", pe->message);
    default:
        return error_set(e, EXIT_RUNTIME, "%s", pe->message);
    }
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

static int name_kernels(struct profile *out, size_t first, const char *const *kernel_names, const uint8_t *image,
                        size_t size, struct prof_error *pe)
{
    for (int r = 0; r < out->n_kernels && !pe->status; ++r) {
        char *name = out->kernels[r].kernel;
        if (kernel_names && kernel_names[r])
            snprintf(name, PROF_KERNEL_NAME_LEN, "%s", kernel_names[r]);
        else
            prof_range_name(image, size, first + (size_t)r, name, PROF_KERNEL_NAME_LEN, pe);
    }
    return pe->status;
}

int metrics_evaluate(struct prof_host *host, const uint8_t *image, size_t size, size_t first, int n,
                     const char *const *kernel_names, const struct prof_config *config, struct profile *out,
                     struct error *e)
{
    struct prof_error pe = {0};
    size_t ranges = 0;
    memset(out, 0, sizeof *out);
    if (config->n_metrics > MAX_METRICS)
        return error_set(e, EXIT_USAGE, "more than %d metrics", MAX_METRICS);
    if (n > MAX_PROFILED_KERNELS)
        return error_set(e, EXIT_RUNTIME, "%d kernels in one profiled call; at most %d are kept", n,
                         MAX_PROFILED_KERNELS);
    if (prof_range_count(image, size, &ranges, &pe))
        return error_from_profiler(e, &pe);
    if (n < 0 || first > ranges || (size_t)n > ranges - first)
        return error_set(e, EXIT_USAGE, "%d ranges from range %zu asked of a counter data image that holds %zu", n,
                         first, ranges);
    out->n_kernels = n;
    name_kernels(out, first, kernel_names, image, size, &pe);
    for (int i = 0; i < config->n_metrics && !pe.status; ++i) {
        out->names[i] = config->metrics[i];
        prof_metric_unit(host, config->metrics[i], out->units[i], METRIC_UNIT_LEN, &pe);
    }
    for (int r = 0; r < n && !pe.status; ++r)
        prof_evaluate(host, image, size, first + (size_t)r, (const char *const *)config->metrics, config->n_metrics,
                      out->kernels[r].values, &pe);
    if (!pe.status)
        out->n_metrics = config->n_metrics;
    return error_from_profiler(e, &pe);
}
