#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>

#include "sass_metrics.h"

/* Before any kernel of interest runs: see prof_sass_open. */
static int configure(struct prof_sass_session *s, struct prof_error *e)
{
    CUpti_SassMetrics_Config configs[PROF_SASS_MAX_METRICS];
    for (int i = 0; i < s->n_metrics; ++i)
        configs[i] = (CUpti_SassMetrics_Config){s->ids[i], CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU};
    CUpti_SassMetricsSetConfig_Params config = {.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    config.numOfMetricConfig = (size_t)s->n_metrics;
    config.pConfigs = configs;
    config.deviceIndex = (uint32_t)s->device;
    if (prof_check(e, cuptiSassMetricsSetConfig(&config), "cuptiSassMetricsSetConfig"))
        return e->status;
    s->configured = 1;
    return PROF_OK;
}

int prof_sass_open(struct prof_sass_session *s, struct CUctx_st *ctx, int device, const char *chip, const char *const *names, int n,
                   struct prof_error *e)
{
    *s = (struct prof_sass_session){.ctx = ctx, .device = device, .n_metrics = n};
    if (n < 1 || n > PROF_SASS_MAX_METRICS)
        return prof_fail(e, PROF_FAILED, "%d SASS metrics; from 1 to %d", n, PROF_SASS_MAX_METRICS);
    CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if (prof_check(e, cuptiProfilerInitialize(&init), "cuptiProfilerInitialize"))
        return e->status;
    for (int i = 0; i < n; ++i) {
        CUpti_SassMetrics_GetProperties_Params p = {.structSize = CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
        p.pChipName = chip;
        p.pMetricName = names[i];
        if (cuptiSassMetricsGetProperties(&p) != CUPTI_SUCCESS)
            return prof_fail(e, PROF_UNKNOWN_METRIC, "%s is not a SASS metric of %s", names[i], chip);
        s->ids[i] = p.metric.metricId;
    }
    return configure(s, e);
}

int prof_sass_begin(struct prof_sass_session *s, struct prof_error *e)
{
    /* Lazy patching: only the kernels that run are patched, at their first launch. */
    CUpti_SassMetricsEnable_Params p = {.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    p.ctx = s->ctx;
    p.enableLazyPatching = 1;
    if (prof_check(e, cuptiSassMetricsEnable(&p), "cuptiSassMetricsEnable"))
        return e->status;
    s->enabled = 1;
    return PROF_OK;
}

static int metric_index(const struct prof_sass_session *s, uint64_t id)
{
    for (int i = 0; i < s->n_metrics; ++i)
        if (s->ids[i] == id)
            return i;
    return -1;
}

static int compare_instructions(uint32_t crc_a, const char *function_a, uint32_t pc_a, uint32_t crc_b,
                                const char *function_b, uint32_t pc_b)
{
    if (crc_a != crc_b)
        return crc_a < crc_b ? -1 : 1;
    int names = strcmp(function_a ? function_a : "", function_b ? function_b : "");
    if (names)
        return names;
    return pc_a < pc_b ? -1 : pc_a > pc_b;
}

static int by_instruction(const void *a, const void *b)
{
    const CUpti_SassMetrics_Data *x = a, *y = b;
    return compare_instructions(x->cubinCrc, x->functionName, x->pcOffset, y->cubinCrc, y->functionName, y->pcOffset);
}

/* CUPTI may report an instruction's metrics in several records (one per metric on GH100): sorted, they merge
 * into one record per instruction. */
static size_t merge(struct prof_sass_session *s, CUpti_SassMetrics_Data *data, size_t n_data, size_t instances,
                    struct prof_sass_record *out)
{
    size_t n = 0;
    qsort(data, n_data, sizeof *data, by_instruction);
    for (size_t i = 0; i < n_data; ++i) {
        const char *function = data[i].functionName ? data[i].functionName : "unknown";
        if (strlen(function) >= sizeof out[0].function) /* kept truncated: the caller decides */
            s->long_named++;
        if (n == 0 || compare_instructions(out[n - 1].cubin_crc, out[n - 1].function, out[n - 1].pc,
                                           data[i].cubinCrc, function, data[i].pcOffset) != 0) {
            out[n] = (struct prof_sass_record){.cubin_crc = data[i].cubinCrc, .pc = data[i].pcOffset};
            snprintf(out[n].function, sizeof out[n].function, "%s", function);
            ++n;
        }
        for (size_t v = 0; v < instances; ++v) {
            int m = metric_index(s, data[i].pInstanceValues[v].metricId);
            if (m >= 0)
                out[n - 1].values[m] += data[i].pInstanceValues[v].value;
        }
    }
    return n;
}

int prof_sass_flush(struct prof_sass_session *s, struct prof_sass_record **records, size_t *n, struct prof_error *e)
{
    *records = NULL;
    *n = 0;
    CUpti_SassMetricsGetDataProperties_Params props = {
        .structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    props.ctx = s->ctx;
    if (prof_check(e, cuptiSassMetricsGetDataProperties(&props), "cuptiSassMetricsGetDataProperties"))
        return e->status;
    size_t count = props.numOfPatchedInstructionRecords, instances = props.numOfInstances;
    if (instances && count > (SIZE_MAX - 1) / instances)
        return prof_fail(e, PROF_FAILED, "%zu SASS metric records of %zu instances: too many", count, instances);
    CUpti_SassMetrics_Data *data = calloc(count + 1, sizeof *data);
    CUpti_SassMetrics_InstanceValue *values = calloc(count * instances + 1, sizeof *values);
    *records = calloc(count + 1, sizeof **records);
    if (!data || !values || !*records) {
        free(data);
        free(values);
        free(*records);
        *records = NULL;
        return prof_fail(e, PROF_FAILED, "out of memory for %zu SASS metric records", count);
    }
    for (size_t i = 0; i < count; ++i)
        data[i] = (CUpti_SassMetrics_Data){.structSize = sizeof data[i], .pInstanceValues = values + i * instances};
    CUpti_SassMetricsFlushData_Params p = {.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
    p.ctx = s->ctx;
    p.numOfPatchedInstructionRecords = count;
    p.numOfInstances = instances;
    p.pMetricsData = data;
    s->long_named = 0;
    if (count == 0 || prof_check(e, cuptiSassMetricsFlushData(&p), "cuptiSassMetricsFlushData") == PROF_OK)
        *n = count ? merge(s, data, count, instances, *records) : 0;
    free(data);
    free(values);
    if (e->status) {
        free(*records);
        *records = NULL;
        *n = 0;
    }
    return e->status;
}

int prof_sass_end(struct prof_sass_session *s, struct prof_sass_record **records, size_t *n, struct prof_error *e)
{
    prof_sass_flush(s, records, n, e);
    CUpti_SassMetricsDisable_Params p = {.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    p.ctx = s->ctx;
    if (prof_check(e, cuptiSassMetricsDisable(&p), "cuptiSassMetricsDisable") == PROF_OK)
        s->enabled = 0; /* else still on: prof_sass_close tries again */
    if (!e->status && p.numOfDroppedRecords)
        prof_fail(e, PROF_DROPPED_RANGES, "%zu SASS metric records dropped", p.numOfDroppedRecords);
    if (e->status) { /* the flush went right, the disable did not */
        free(*records);
        *records = NULL;
        *n = 0;
    }
    return e->status;
}

int prof_sass_close(struct prof_sass_session *s, struct prof_error *e)
{
    if (s->enabled) {
        CUpti_SassMetricsDisable_Params p = {.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
        p.ctx = s->ctx;
        prof_check(e, cuptiSassMetricsDisable(&p), "cuptiSassMetricsDisable");
    }
    if (s->configured) {
        CUpti_SassMetricsUnsetConfig_Params p = {.structSize = CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
        p.deviceIndex = (uint32_t)s->device;
        prof_check(e, cuptiSassMetricsUnsetConfig(&p), "cuptiSassMetricsUnsetConfig");
    }
    *s = (struct prof_sass_session){0};
    return e->status;
}
