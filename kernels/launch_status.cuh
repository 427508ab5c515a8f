/* Shared by the kernel files: turn the state after a <<<>>> launch into a launcher's result. */
#ifndef MEMSCOPE_LAUNCH_STATUS_CUH
#define MEMSCOPE_LAUNCH_STATUS_CUH

#include <cuda_runtime.h>

static inline const char *launch_status(void)
{
    cudaError_t rc = cudaGetLastError();
    return rc == cudaSuccess ? NULL : cudaGetErrorString(rc);
}

#endif
