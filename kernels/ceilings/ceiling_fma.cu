/*
 * The compute ceilings: fused multiply-adds and nothing else in the loop. CEILING_FMA_CHAINS independent
 * accumulators per thread, so that with every SM full of warps the FMA pipe never waits for a result; the
 * multiplier and addend are kernel arguments, so the compiler cannot fold the chains away. One template gives
 * the FFMA kernel (float) and the DFMA kernel (double).
 */
#include "../launch_status.cuh"
#include "ceilings.h"

template <typename T>
__global__ void __launch_bounds__(CEILING_THREADS) fma_kernel(T *sink, int rounds, T multiplier, T addend)
{
    T acc[CEILING_FMA_CHAINS];
#pragma unroll
    for (int c = 0; c < CEILING_FMA_CHAINS; ++c)
        acc[c] = (T)(threadIdx.x + c);
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int k = 0; k < CEILING_FMA_PER_CHAIN; ++k)
#pragma unroll
            for (int c = 0; c < CEILING_FMA_CHAINS; ++c)
                acc[c] = fma(acc[c], multiplier, addend);
    }
    T sum = 0;
#pragma unroll
    for (int c = 0; c < CEILING_FMA_CHAINS; ++c)
        sum += acc[c];
    if (sum == (T)-1) /* the chains stay positive: never, but the compiler cannot know */
        *sink = sum;
}

/* x * 0.999 + 0.001 stays near 1: no overflow, no denormals, whatever the number of rounds. */
extern "C" const char *ceiling_ffma(float *sink, int rounds, int blocks, cudaStream_t stream)
{
    fma_kernel<float><<<blocks, CEILING_THREADS, 0, stream>>>(sink, rounds, 0.999f, 0.001f);
    return launch_status();
}

extern "C" const char *ceiling_dfma(double *sink, int rounds, int blocks, cudaStream_t stream)
{
    fma_kernel<double><<<blocks, CEILING_THREADS, 0, stream>>>(sink, rounds, 0.999, 0.001);
    return launch_status();
}

extern "C" const void *ceiling_ffma_kernel(void)
{
    return (const void *)fma_kernel<float>;
}

extern "C" const void *ceiling_dfma_kernel(void)
{
    return (const void *)fma_kernel<double>;
}
