/* GPU tests skip, never pass, where no GPU can be used. */
#ifndef MEMSCOPE_GPU_PRESENT_H
#define MEMSCOPE_GPU_PRESENT_H

#include <stdbool.h>

#include <cuda_runtime_api.h>

static inline bool gpu_present(void)
{
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

#endif
