/*
 * The streaming copy behind the DRAM and L2 ceilings. 128-bit words, grid-stride, each thread loading
 * COPY_BATCH words before it stores them, so that several loads are in flight per thread. The loads and stores
 * cache in the L2 only (l2_only.cuh): a pass over an L2-resident buffer is served by the L2, never by the L1.
 */
#include "../l2_only.cuh"
#include "../launch_status.cuh"
#include "ceilings.h"

#define COPY_BATCH 4

__global__ void __launch_bounds__(CEILING_THREADS) copy_kernel(const float4 *in, float4 *out, size_t count,
                                                                int passes)
{
    size_t stride = (size_t)gridDim.x * blockDim.x, first = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (int p = 0; p < passes; ++p) {
        size_t i = first;
        for (; i + (COPY_BATCH - 1) * stride < count; i += COPY_BATCH * stride) {
            float4 v[COPY_BATCH];
#pragma unroll
            for (int b = 0; b < COPY_BATCH; ++b)
                v[b] = load_cg(in + i + b * stride);
#pragma unroll
            for (int b = 0; b < COPY_BATCH; ++b)
                store_cg(out + i + b * stride, v[b]);
        }
        for (; i < count; i += stride)
            store_cg(out + i, load_cg(in + i));
    }
}

extern "C" const char *ceiling_copy(const float4 *in, float4 *out, size_t count, int passes, int blocks,
                                    cudaStream_t stream)
{
    copy_kernel<<<blocks, CEILING_THREADS, 0, stream>>>(in, out, count, passes);
    return launch_status();
}

extern "C" const void *ceiling_copy_kernel(void)
{
    return (const void *)copy_kernel;
}
