/*
 * The only C++ translation unit of the project: cupti_profiler_host.h includes
 * <string>, so it cannot be compiled as C. Everything here is C in all but
 * name, behind the C interface of metric_host.h.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cxxabi.h>

#include <cupti_profiler_host.h>
#include <cupti_result.h>

#include "metric_host.h"

struct prof_host {
    CUpti_Profiler_Host_Object *object;
    char chip[32];
};

/* Whether CUPTI lists the chip (compared by whole name), and the list, for the message when it does not. */
static int chip_listed(const char *chip, char *buf, size_t len, bool *listed)
{
    CUpti_Profiler_Host_GetSupportedChips_Params p{};
    p.structSize = CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE;
    size_t used = 0;
    buf[0] = '\0';
    *listed = false;
    if (cuptiProfilerHostGetSupportedChips(&p) != CUPTI_SUCCESS)
        return -1;
    for (size_t i = 0; i < p.numChips; ++i) {
        *listed = *listed || strcmp(p.ppChipNames[i], chip) == 0;
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", p.ppChipNames[i]);
    }
    return 0;
}

int prof_host_open(const char *chip, struct prof_host **out, struct prof_error *e)
{
    CUpti_Profiler_Host_Initialize_Params p{};
    p.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    struct prof_host *h = (struct prof_host *)calloc(1, sizeof *h);
    if (!h)
        return prof_fail(e, PROF_FAILED, "out of memory");
    CUptiResult rc = cuptiProfilerHostInitialize(&p);
    if (rc != CUPTI_SUCCESS) {
        char chips[512];
        bool listed;
        free(h);
        if (chip_listed(chip, chips, sizeof chips, &listed) == 0 && !listed)
            return prof_fail(e, PROF_UNSUPPORTED_CHIP, "chip %s is not supported by this CUPTI (supported: %s)", chip,
                             chips);
        return prof_check(e, rc, "cuptiProfilerHostInitialize");
    }
    h->object = p.pHostObject;
    snprintf(h->chip, sizeof h->chip, "%s", chip);
    *out = h;
    return PROF_OK;
}

int prof_host_close(struct prof_host *h, struct prof_error *e)
{
    if (!h)
        return e->status;
    CUpti_Profiler_Host_Deinitialize_Params p{};
    p.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
    p.pHostObject = h->object;
    prof_check(e, cuptiProfilerHostDeinitialize(&p), "cuptiProfilerHostDeinitialize");
    free(h);
    return e->status;
}

/* Edit distance, for suggesting a near name when one is mistyped. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    size_t row[256];
    if (lb >= sizeof row / sizeof row[0])
        return (size_t)-1;
    for (size_t j = 0; j <= lb; ++j)
        row[j] = j;
    for (size_t i = 1; i <= la; ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; ++j) {
            size_t above = row[j];
            size_t best = diagonal + (a[i - 1] != b[j - 1]);
            if (above + 1 < best)
                best = above + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

struct suggestion {
    const char *name;
    size_t distance;
};

static void consider(struct suggestion best[3], const char *candidate, const char *base, size_t base_len)
{
    const char *dot = strrchr(candidate, '.'); /* some base names carry a "Unit.Group." prefix */
    const char *plain = dot ? dot + 1 : candidate;
    size_t d = edit_distance(base, base_len, plain, strlen(plain));
    for (int k = 0; k < 3; ++k)
        if (d < best[k].distance) {
            for (int m = 2; m > k; --m)
                best[m] = best[m - 1];
            best[k] = (struct suggestion){plain, d};
            return;
        }
}

static void suggest(struct prof_host *h, const char *name, char *buf, size_t len)
{
    struct suggestion best[3] = {{NULL, (size_t)-1}, {NULL, (size_t)-1}, {NULL, (size_t)-1}};
    const char *dot = strchr(name, '.');
    size_t base_len = dot ? (size_t)(dot - name) : strlen(name);
    for (int type = 0; type < CUPTI_METRIC_TYPE__COUNT; ++type) {
        CUpti_Profiler_Host_GetBaseMetrics_Params p{};
        p.structSize = CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE;
        p.pHostObject = h->object;
        p.metricType = (CUpti_MetricType)type;
        if (cuptiProfilerHostGetBaseMetrics(&p) != CUPTI_SUCCESS)
            continue;
        for (size_t i = 0; i < p.numMetrics; ++i)
            consider(best, p.ppMetricNames[i], name, base_len);
    }
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < 3 && best[k].name && used < len; ++k)
        used += (size_t)snprintf(buf + used, len - used, "%s%s%s", k ? ", " : "", best[k].name, dot ? dot : "");
}

static int properties(struct prof_host *h, const char *name, CUpti_Profiler_Host_GetMetricProperties_Params *p)
{
    *p = CUpti_Profiler_Host_GetMetricProperties_Params{};
    p->structSize = CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE;
    p->pHostObject = h->object;
    p->pMetricName = name;
    return cuptiProfilerHostGetMetricProperties(p);
}

int prof_metric_validate(struct prof_host *h, const char *name, struct prof_error *e)
{
    CUpti_Profiler_Host_GetMetricProperties_Params p;
    CUptiResult rc = (CUptiResult)properties(h, name, &p);
    if (rc == CUPTI_ERROR_INVALID_METRIC_NAME) {
        char near[768];
        suggest(h, name, near, sizeof near);
        return prof_fail(e, PROF_UNKNOWN_METRIC, "unknown metric '%s'%s%s", name, near[0] ? "; did you mean: " : "",
                         near);
    }
    return prof_check(e, rc, "cuptiProfilerHostGetMetricProperties");
}

int prof_metric_unit(struct prof_host *h, const char *name, char *unit, size_t len, struct prof_error *e)
{
    CUpti_Profiler_Host_GetMetricProperties_Params p;
    if (prof_check(e, properties(h, name, &p), "cuptiProfilerHostGetMetricProperties"))
        return e->status;
    snprintf(unit, len, "%s", p.pDimUnit ? p.pDimUnit : "");
    return PROF_OK;
}

static int config_image(struct prof_host *h, const char *const *metrics, int n, struct prof_config *c,
                        struct prof_error *e)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{};
    add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
    add.pHostObject = h->object;
    add.ppMetricNames = const_cast<const char **>(metrics);
    add.numMetrics = (size_t)n;
    if (prof_check(e, cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics"))
        return e->status;
    CUpti_Profiler_Host_GetConfigImageSize_Params size{};
    size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
    size.pHostObject = h->object;
    if (prof_check(e, cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize"))
        return e->status;
    c->image_size = size.configImageSize;
    c->image = (uint8_t *)malloc(c->image_size);
    if (!c->image)
        return prof_fail(e, PROF_FAILED, "out of memory for a %zu-byte configuration", c->image_size);
    CUpti_Profiler_Host_GetConfigImage_Params image{};
    image.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
    image.pHostObject = h->object;
    image.configImageSize = c->image_size;
    image.pConfigImage = c->image;
    if (prof_check(e, cuptiProfilerHostGetConfigImage(&image), "cuptiProfilerHostGetConfigImage"))
        return e->status;
    CUpti_Profiler_Host_GetNumOfPasses_Params passes{};
    passes.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
    passes.configImageSize = c->image_size;
    passes.pConfigImage = c->image;
    if (prof_check(e, cuptiProfilerHostGetNumOfPasses(&passes), "cuptiProfilerHostGetNumOfPasses"))
        return e->status;
    c->passes = passes.numOfPasses;
    return PROF_OK;
}

static int copy_names(const char *const *metrics, int n, struct prof_config *c, struct prof_error *e)
{
    c->metrics = (char **)calloc((size_t)n, sizeof *c->metrics);
    if (!c->metrics)
        return prof_fail(e, PROF_FAILED, "out of memory");
    c->n_metrics = n;
    for (int i = 0; i < n; ++i)
        if (!(c->metrics[i] = strdup(metrics[i])))
            return prof_fail(e, PROF_FAILED, "out of memory");
    return PROF_OK;
}

int prof_config_build(struct prof_host *h, const char *const *metrics, int n_metrics, struct prof_config *out,
                      struct prof_error *e)
{
    *out = prof_config{};
    snprintf(out->chip, sizeof out->chip, "%s", h->chip);
    if (n_metrics <= 0)
        return prof_fail(e, PROF_UNKNOWN_METRIC, "no metric given");
    for (int i = 0; i < n_metrics && !e->status; ++i)
        prof_metric_validate(h, metrics[i], e);
    if (!e->status && copy_names(metrics, n_metrics, out, e) == PROF_OK)
        config_image(h, metrics, n_metrics, out, e);
    return e->status;
}

void prof_config_free(struct prof_config *c)
{
    for (int i = 0; c->metrics && i < c->n_metrics; ++i)
        free(c->metrics[i]);
    free(c->metrics);
    free(c->image);
    *c = prof_config{};
}

void prof_demangle(const char *symbol, char *name, size_t len)
{
    int status = 0;
    char *plain = abi::__cxa_demangle(symbol, NULL, NULL, &status);
    snprintf(name, len, "%s", status == 0 && plain ? plain : symbol);
    free(plain);
}

int prof_range_name(const uint8_t *counter_data, size_t size, size_t range, char *name, size_t len,
                    struct prof_error *e)
{
    CUpti_Profiler_Host_GetRangeName_Params p{};
    p.structSize = CUpti_Profiler_Host_GetRangeName_Params_STRUCT_SIZE;
    p.pCounterDataImage = counter_data;
    p.counterDataImageSize = size;
    p.rangeIndex = range;
    p.delimiter = "/";
    if (prof_check(e, cuptiProfilerHostGetRangeName(&p), "cuptiProfilerHostGetRangeName"))
        return e->status;
    snprintf(name, len, "%s", p.pRangeName ? p.pRangeName : "");
    free((void *)p.pRangeName);
    return PROF_OK;
}

int prof_evaluate(struct prof_host *h, const uint8_t *counter_data, size_t size, size_t range,
                  const char *const *metrics, int n_metrics, double *values, struct prof_error *e)
{
    CUpti_Profiler_Host_EvaluateToGpuValues_Params p{};
    p.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
    p.pHostObject = h->object;
    p.pCounterDataImage = counter_data;
    p.counterDataImageSize = size;
    p.rangeIndex = range;
    p.ppMetricNames = const_cast<const char **>(metrics);
    p.numMetrics = (size_t)n_metrics;
    p.pMetricValues = values;
    return prof_check(e, cuptiProfilerHostEvaluateToGpuValues(&p), "cuptiProfilerHostEvaluateToGpuValues");
}
