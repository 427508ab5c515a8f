#include <cuda.h>
#include <cuda_runtime_api.h>

#include "range_profiler.h"

/* The driver's cuCtxGetCurrent through the runtime, so the program need not link libcuda. */
int prof_current_context(CUcontext *ctx, struct prof_error *e)
{
    CUresult (*get_current)(CUcontext *) = NULL;
    enum cudaDriverEntryPointQueryResult found;
    if (cudaFree(NULL) != cudaSuccess || /* makes the primary context current */
        cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", (void **)&get_current, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess || get_current(ctx) != CUDA_SUCCESS || !*ctx)
        return prof_fail(e, PROF_FAILED, "no current CUDA context to profile");
    return PROF_OK;
}
