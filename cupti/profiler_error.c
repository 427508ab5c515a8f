#include <stdarg.h>
#include <stdio.h>

#include <cupti_result.h>

#include "profiler_error.h"

int prof_fail(struct prof_error *e, enum prof_status status, const char *fmt, ...)
{
    if (e->status != PROF_OK)
        return e->status;
    e->status = status;
    va_list args;
    va_start(args, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, args);
    va_end(args);
    return status;
}

int prof_check(struct prof_error *e, int cupti_result, const char *call)
{
    const char *text = "unknown error";
    if (cupti_result == CUPTI_SUCCESS)
        return PROF_OK;
    cuptiGetResultString((CUptiResult)cupti_result, &text);
    if (cupti_result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        return prof_fail(e, PROF_NO_PERMISSION,
                         "%s: %s. Reading GPU performance counters needs permission: run as root, or load the "
                         "NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0 (see "
                         "https://developer.nvidia.com/ERR_NVGPUCTRPERM)",
                         call, text);
    return prof_fail(e, PROF_FAILED, "%s: %s (CUPTI error %d)", call, text, cupti_result);
}
