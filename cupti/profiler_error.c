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
    if (cupti_result == CUPTI_ERROR_HARDWARE_BUSY)
        return prof_fail(e, PROF_BUSY,
                         "%s: %s (CUPTI error %d): another process is using this GPU's profiler (Nsight Compute, "
                         "Nsight Systems, a framework's profiler, or another memscope run that does not share this "
                         "machine's lock folder); run again when it has finished",
                         call, text, cupti_result);
    if (cupti_result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        return prof_fail(e, PROF_NO_PERMISSION,
                         "%s: %s. Reading GPU performance counters needs permission: run as root, or load the "
                         "NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0 (see "
                         "https://developer.nvidia.com/ERR_NVGPUCTRPERM)",
                         call, text);
    if (cupti_result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        return prof_fail(e, PROF_TAKEN,
                         "%s: %s (CUPTI error %d): another tool already holds CUPTI in this process (Nsight Systems, "
                         "Nsight Compute, the PyTorch profiler or another injection library); run the program "
                         "without it",
                         call, text, cupti_result);
    return prof_fail(e, PROF_FAILED, "%s: %s (CUPTI error %d)", call, text, cupti_result);
}

int prof_check_sampler(struct prof_error *e, int cupti_result, const char *call)
{
    if (cupti_result != CUPTI_ERROR_UNKNOWN)
        return prof_check(e, cupti_result, call);
    return prof_fail(e, PROF_BUSY,
                     "%s: CUPTI_ERROR_UNKNOWN (CUPTI error %d), which CUPTI answers when another process samples "
                     "the same GPU's PCs at the same time (Nsight Compute's or Nsight Systems' PC sampling, or "
                     "another memscope run that does not share this machine's lock folder); run again when it has "
                     "finished. With no other profiler on the GPU, it is a CUPTI failure",
                     call, cupti_result);
}

static double busy_wait_s;
static FILE *busy_wait_log;

void prof_set_busy_wait(double seconds, FILE *log)
{
    busy_wait_s = seconds;
    busy_wait_log = log;
}

double prof_busy_wait_seconds(void)
{
    return busy_wait_s;
}

FILE *prof_busy_wait_log(void)
{
    return busy_wait_log;
}
