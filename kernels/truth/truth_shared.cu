/*
 * Shared-memory word stride: every thread of a warp reads word
 * (lane * stride + r) of a shared array, TRUTH_SHARED_READS times. For 32-bit
 * words the 32 addresses fall into 32 / gcd(stride, 32) banks, a
 * gcd(stride, 32)-way conflict; 64-bit words cover two banks each, 128-bit
 * words four. Stride 0 is a broadcast: every lane reads the same word. The
 * array is filled with one conflict-free store per word, so the loads are the
 * lesson.
 */
#include "../launch_status.cuh"
#include "truth.h"

#define WORDS 2048 /* enough for lane * 32 + reads, a multiple of the 32 banks; 32 KB of 128-bit words */

__device__ float4 operator+(float4 a, float4 b)
{
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

template <typename T> __device__ T word_of(int i)
{
    return (T)i;
}

template <> __device__ float4 word_of<float4>(int i)
{
    return make_float4((float)i, 0.0f, 0.0f, 0.0f);
}

/* One template for 32-, 64- and 128-bit words: the access pattern is the experiment, the width its parameter. */
template <typename T>
__global__ void shared_stride_kernel(T *out, int stride)
{
    __shared__ T words[WORDS];
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x)
        words[i] = word_of<T>(i);
    __syncthreads();
    int lane = threadIdx.x % 32;
    T acc = word_of<T>(0);
#pragma unroll 8
    for (int r = 0; r < TRUTH_SHARED_READS; ++r)
        acc = acc + words[(lane * stride + r) % WORDS];
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

extern "C" const char *truth_shared_stride_f128(float4 *out, int stride, int blocks, cudaStream_t stream)
{
    shared_stride_kernel<float4><<<blocks, 256, 0, stream>>>(out, stride);
    return launch_status();
}
