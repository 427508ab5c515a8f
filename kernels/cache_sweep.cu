#include "cache_sweep.h"
#include "launch_status.cuh"

#define L2_LINE_BYTES 128

__global__ void cache_sweep_kernel(const int4 *buffer, size_t count, int *sink)
{
    int acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        int4 v = buffer[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x5EEDF00D) /* the buffer holds zeros; the compiler cannot know, so the reads stay */
        *sink = acc;
}

/* The sweep's own lines are clean: dropping them writes nothing back and leaves their L2 ways free. */
__global__ void l2_discard_kernel(char *buffer, size_t lines)
{
#if __CUDA_ARCH__ >= 800
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < lines; i += (size_t)gridDim.x * blockDim.x)
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(buffer + i * L2_LINE_BYTES) : "memory");
#endif
}

extern "C" const char *cache_sweep(void *buffer, size_t bytes, int *sink, cudaStream_t stream)
{
    cache_sweep_kernel<<<1024, 512, 0, stream>>>((const int4 *)buffer, bytes / sizeof(int4), sink);
    const char *why = launch_status();
    if (why)
        return why;
    l2_discard_kernel<<<1024, 512, 0, stream>>>((char *)buffer, bytes / L2_LINE_BYTES);
    return launch_status();
}
