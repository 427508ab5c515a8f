/* Reading a counter data image's range count: host work, with no GPU, so offline decoding can link it. */
#include <cupti_range_profiler.h>

#include "range_profiler.h"

int prof_range_count(const uint8_t *counter_data, size_t size, size_t *ranges, struct prof_error *e)
{
    CUpti_RangeProfiler_GetCounterDataInfo_Params info = {.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = counter_data;
    info.counterDataImageSize = size;
    if (prof_check(e, cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo"))
        return e->status;
    *ranges = info.numTotalRanges;
    return PROF_OK;
}
