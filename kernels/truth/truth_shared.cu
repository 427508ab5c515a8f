/*
 * Shared-memory word stride: every thread of a warp reads word
 * (lane * stride + r) of a shared array, TRUTH_SHARED_READS times. For 32-bit
 * words the 32 addresses fall into 32 / gcd(stride, 32) banks, a
 * gcd(stride, 32)-way conflict; 64-bit words cover two banks each. The array
 * is filled with one conflict-free store per word, so the loads are the lesson.
 */
#include "../launch_status.cuh"
#include "truth.h"

#define WORDS 2048 /* enough for lane * 32 + reads, a multiple of the 32 banks */

/* One template for 32- and 64-bit words: the access pattern is the experiment, the width its parameter. */
template <typename T>
__global__ void shared_stride_kernel(T *out, int stride)
{
    __shared__ T words[WORDS];
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x)
        words[i] = (T)i;
    __syncthreads();
    int lane = threadIdx.x % 32;
    T acc = 0;
#pragma unroll 8
    for (int r = 0; r < TRUTH_SHARED_READS; ++r)
        acc += words[(lane * stride + r) % WORDS];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" const char *truth_shared_stride_f32(float *out, int stride, int blocks, cudaStream_t stream)
{
    shared_stride_kernel<float><<<blocks, 256, 0, stream>>>(out, stride);
    return launch_status();
}

extern "C" const char *truth_shared_stride_f64(double *out, int stride, int blocks, cudaStream_t stream)
{
    shared_stride_kernel<double><<<blocks, 256, 0, stream>>>(out, stride);
    return launch_status();
}
