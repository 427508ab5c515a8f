#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "range_profiler.h"
#include "subscriber.h"

int prof_chip_name(int device, char *chip, size_t len, struct prof_error *e)
{
    CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if (prof_check(e, cuptiProfilerInitialize(&init), "cuptiProfilerInitialize"))
        return e->status;
    CUpti_Device_GetChipName_Params p = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    p.deviceIndex = (size_t)device;
    if (prof_check(e, cuptiDeviceGetChipName(&p), "cuptiDeviceGetChipName"))
        return e->status;
    strncpy(chip, p.pChipName, len - 1);
    chip[len - 1] = '\0';
    return PROF_OK;
}

/* Also binds the profiler object to the configuration's metrics, which the image initialisation relies on. */
static int counter_data_size(struct prof_session *s, const struct prof_config *config, size_t *size,
                             struct prof_error *e)
{
    CUpti_RangeProfiler_GetCounterDataSize_Params p = {
        .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = s->object;
    p.pMetricNames = (const char **)config->metrics;
    p.numMetrics = (size_t)config->n_metrics;
    p.maxNumOfRanges = s->max_ranges;
    p.maxNumRangeTreeNodes = (uint32_t)s->max_ranges;
    if (prof_check(e, cuptiRangeProfilerGetCounterDataSize(&p), "cuptiRangeProfilerGetCounterDataSize"))
        return e->status;
    *size = p.counterDataSize;
    return PROF_OK;
}

int prof_counter_data_create(struct prof_session *s, const struct prof_config *config, struct prof_counter_data *d,
                             struct prof_error *e)
{
    *d = (struct prof_counter_data){.config = config};
    if (counter_data_size(s, config, &d->size, e))
        return e->status;
    d->image = malloc(d->size);
    if (!d->image)
        return prof_fail(e, PROF_FAILED, "out of memory for a %zu-byte counter data image", d->size);
    return PROF_OK;
}

void prof_counter_data_free(struct prof_counter_data *d)
{
    free(d->image);
    *d = (struct prof_counter_data){0};
}

static void on_launch(void *context, const struct prof_launch *launch)
{
    struct prof_session *s = context;
    if (!s->recording || !launch->entering)
        return;
    if (s->launches < PROF_MAX_RANGES)
        snprintf(s->kernel_names[s->launches], PROF_KERNEL_NAME_LEN, "%s", launch->symbol);
    s->launches++;
}

static int enable(struct prof_session *s, CUcontext ctx, struct prof_error *e)
{
    CUpti_RangeProfiler_Enable_Params p = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    p.ctx = ctx;
    if (prof_check(e, cuptiRangeProfilerEnable(&p), "cuptiRangeProfilerEnable"))
        return e->status;
    s->object = p.pRangeProfilerObject;
    return PROF_OK;
}

static void disable(struct prof_session *s, struct prof_error *e)
{
    CUpti_RangeProfiler_Disable_Params p = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = s->object;
    prof_check(e, cuptiRangeProfilerDisable(&p), "cuptiRangeProfilerDisable");
    s->object = NULL;
}

static int open_on(struct prof_session *s, CUcontext ctx, size_t max_ranges, enum prof_replay replay,
                   struct prof_error *e)
{
    *s = (struct prof_session){.max_ranges = max_ranges, .replay = replay};
    if (max_ranges == 0 || max_ranges > PROF_MAX_RANGES)
        return prof_fail(e, PROF_FAILED, "at most %d ranges per pass", PROF_MAX_RANGES);
    CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if (prof_check(e, cuptiProfilerInitialize(&init), "cuptiProfilerInitialize"))
        return e->status;
    return enable(s, ctx, e);
}

int prof_session_open(struct prof_session *s, struct CUctx_st *ctx, size_t max_ranges, enum prof_replay replay,
                      struct prof_error *e)
{
    if (open_on(s, ctx, max_ranges, replay, e) || replay == PROF_KERNEL_REPLAY)
        return e->status;
    if (prof_subscriber_listen(on_launch, s, e))
        return e->status;
    s->listening = 1;
    return PROF_OK;
}

int prof_session_begin(struct prof_session *s, struct prof_counter_data *d, struct prof_error *e)
{
    size_t size;
    if (counter_data_size(s, d->config, &size, e))
        return e->status;
    if (size != d->size)
        return prof_fail(e, PROF_FAILED, "counter data size changed from %zu to %zu bytes", d->size, size);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init = {.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = s->object;
    init.counterDataSize = d->size;
    init.pCounterData = d->image;
    if (prof_check(e, cuptiRangeProfilerCounterDataImageInitialize(&init),
                   "cuptiRangeProfilerCounterDataImageInitialize"))
        return e->status;
    CUpti_RangeProfiler_SetConfig_Params config = {.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    config.pRangeProfilerObject = s->object;
    config.configSize = d->config->image_size;
    config.pConfig = d->config->image;
    config.counterDataImageSize = d->size;
    config.pCounterDataImage = d->image;
    config.range = CUPTI_AutoRange;
    config.replayMode = s->replay == PROF_KERNEL_REPLAY ? CUPTI_KernelReplay : CUPTI_UserReplay;
    config.maxRangesPerPass = s->max_ranges;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.targetNestingLevel = 1;
    return prof_check(e, cuptiRangeProfilerSetConfig(&config), "cuptiRangeProfilerSetConfig");
}

/* Another process holding the GPU's profiler is waited for, up to prof_busy_wait_seconds(), and said so once. */
static CUptiResult start_when_free(CUpti_RangeProfiler_Start_Params *start)
{
    const useconds_t poll_us = 250000;
    double waited_s = 0.0;
    CUptiResult rc;
    while ((rc = cuptiRangeProfilerStart(start)) == CUPTI_ERROR_HARDWARE_BUSY && waited_s < prof_busy_wait_seconds()) {
        if (waited_s == 0.0 && prof_busy_wait_log())
            fprintf(prof_busy_wait_log(), "another process is using the GPU's profiler; waiting up to %.0f s for it\n",
                    prof_busy_wait_seconds());
        usleep(poll_us);
        waited_s += poll_us / 1e6;
    }
    return rc;
}

int prof_pass_begin(struct prof_session *s, struct prof_error *e)
{
    CUpti_RangeProfiler_Start_Params start = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = s->object;
    s->launches = 0;
    s->recording = 1;
    return prof_check(e, start_when_free(&start), "cuptiRangeProfilerStart");
}

int prof_pass_end(struct prof_session *s, bool *all_passes_done, struct prof_error *e)
{
    CUpti_RangeProfiler_Stop_Params stop = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = s->object;
    s->recording = 0;
    if (prof_check(e, cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop"))
        return e->status;
    *all_passes_done = stop.isAllPassSubmitted;
    return PROF_OK;
}

int prof_session_end(struct prof_session *s, struct prof_counter_data *d, size_t *ranges, struct prof_error *e)
{
    CUpti_RangeProfiler_DecodeData_Params decode = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    decode.pRangeProfilerObject = s->object;
    if (prof_check(e, cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData"))
        return e->status;
    if (decode.numOfRangeDropped)
        return prof_fail(e, PROF_DROPPED_RANGES,
                         "%zu profiled range(s) dropped: more than %zu kernels ran in one pass",
                         decode.numOfRangeDropped, s->max_ranges);
    return prof_range_count(d->image, d->size, ranges, e);
}

int prof_session_close(struct prof_session *s, struct prof_error *e)
{
    if (s->listening)
        prof_subscriber_listen(NULL, NULL, e);
    if (s->object)
        disable(s, e);
    *s = (struct prof_session){0};
    return e->status;
}
