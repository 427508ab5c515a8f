#include "cache_sweep.h"
#include "launch_status.cuh"

__global__ void cache_sweep_kernel(const int4 *buffer, size_t count, int *sink)
{
    int acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        int4 v = buffer[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x5EEDF00D) /* never true for the zero-filled buffer; the compiler cannot know */
        *sink = acc;
}

extern "C" const char *cache_sweep(const void *buffer, size_t bytes, int *sink, cudaStream_t stream)
{
    cache_sweep_kernel<<<1024, 512, 0, stream>>>((const int4 *)buffer, bytes / sizeof(int4), sink);
    return launch_status();
}
