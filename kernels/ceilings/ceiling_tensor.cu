/*
 * The tensor-core ceilings: wgmma.mma_async and nothing else in the loop. Each warpgroup keeps a 64 x 256 FP32
 * accumulator in registers (128 per thread) and issues CEILING_TENSOR_WGMMA_PER_ROUND m64n256kK wgmma per round on
 * the same two tiles in shared memory (A 64 x K, B 256 x K: 32 bytes a row in every type), so the tensor pipe is
 * fed from shared memory only; the two warpgroups of a block take turns at it while the other waits for its group.
 * The tiles hold a fixed pattern of small positive normal values (1/64 to 7/64, exact in every type): zeros would
 * run faster than real data. Built for sm_90a only (the Makefile); in any other pass the kernel is empty and the
 * launcher refuses.
 *
 * Operand layout: no swizzle, K-major, core matrices of 8 rows x 16 bytes (128 contiguous bytes, conflict-free);
 * the two core matrices of a row's 32 bytes are 128 bytes apart (the leading-dimension offset), successive groups
 * of 8 rows 256 bytes apart (the stride offset): A 8 x 256 = 2 KB, B 32 x 256 = 8 KB.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <stdint.h>

#include "../launch_status.cuh"
#include "../wgmma_operands.cuh"
#include "ceilings.h"

#define ROW_BYTES 32
#define GROUP_BYTES 256 /* 8 rows of 32 bytes */
#define A_BYTES (CEILING_TENSOR_M / 8 * GROUP_BYTES)
#define B_BYTES (CEILING_TENSOR_N / 8 * GROUP_BYTES)
#define ACCUMULATORS (CEILING_TENSOR_M * CEILING_TENSOR_N / 128) /* per thread of a warpgroup */

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* A shared-memory matrix descriptor: address, leading and stride byte offsets (each in 16-byte units), no swizzle. */
static __device__ __forceinline__ uint64_t descriptor(const void *tile)
{
    uint64_t address = (uint32_t)__cvta_generic_to_shared(tile);
    return ((address & 0x3FFFF) >> 4) | ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(GROUP_BYTES >> 4) << 32);
}

/* One wgmma accumulating into d (scale-d true), A and B both from shared memory, neither transposed. */
#define WGMMA(instruction, operands)                                                                             \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n" instruction " {" WG_TEXT_0_127 "}, %128, %129, p, " \
                 operands ";\n}\n"                                                                                \
                 : WG_D_0_127                                                                                     \
                 : "l"(a), "l"(b), "r"(1))

template <int T> static __device__ __forceinline__ void wgmma(float (&d)[ACCUMULATORS], uint64_t a, uint64_t b);
template <> __device__ __forceinline__ void wgmma<CEILING_TENSOR_BF16_IN>(float (&d)[ACCUMULATORS], uint64_t a, uint64_t b)
{
    WGMMA("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", "1, 1, 0, 0");
}
template <> __device__ __forceinline__ void wgmma<CEILING_TENSOR_FP16_IN>(float (&d)[ACCUMULATORS], uint64_t a, uint64_t b)
{
    WGMMA("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", "1, 1, 0, 0");
}
template <> __device__ __forceinline__ void wgmma<CEILING_TENSOR_TF32_IN>(float (&d)[ACCUMULATORS], uint64_t a, uint64_t b)
{
    WGMMA("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32", "1, 1");
}
template <> __device__ __forceinline__ void wgmma<CEILING_TENSOR_FP8_IN>(float (&d)[ACCUMULATORS], uint64_t a, uint64_t b)
{
    WGMMA("wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", "1, 1");
}
#endif

/* The pattern, element i of a tile: (1 + i % 7) / 64, exact in bf16, fp16, tf32 and e4m3. */
template <int T> static __device__ void fill(unsigned char *tile, int bytes)
{
    for (int i = threadIdx.x; i < bytes / 4; i += blockDim.x) {
        float v = (float)(1 + i % 7) / 64.0f;
        if (T == CEILING_TENSOR_BF16_IN) {
            __nv_bfloat16 h = __float2bfloat16(v);
            ((__nv_bfloat16 *)tile)[2 * i] = h;
            ((__nv_bfloat16 *)tile)[2 * i + 1] = h;
        } else if (T == CEILING_TENSOR_FP16_IN) {
            ((__half *)tile)[2 * i] = __float2half(v);
            ((__half *)tile)[2 * i + 1] = __float2half(v);
        } else if (T == CEILING_TENSOR_TF32_IN) {
            ((float *)tile)[i] = v;
        } else {
            __nv_fp8_e4m3 q(v);
            for (int j = 0; j < 4; ++j)
                ((__nv_fp8_e4m3 *)tile)[4 * i + j] = q;
        }
    }
}

template <int T> __global__ void __launch_bounds__(CEILING_THREADS, 1) tensor_kernel(float *sink, int rounds)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ __align__(1024) unsigned char a_tile[A_BYTES];
    __shared__ __align__(1024) unsigned char b_tile[B_BYTES];
    fill<T>(a_tile, A_BYTES);
    fill<T>(b_tile, B_BYTES);
    /* written by ordinary stores, read next by the tensor cores (the async proxy) */
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    uint64_t a = descriptor(a_tile), b = descriptor(b_tile);
    float d[ACCUMULATORS];
#pragma unroll
    for (int i = 0; i < ACCUMULATORS; ++i)
        d[i] = 0.0f;
    for (int r = 0; r < rounds; ++r) {
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int w = 0; w < CEILING_TENSOR_WGMMA_PER_ROUND; ++w)
            wgmma<T>(d, a, b);
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    }
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < ACCUMULATORS; ++i)
        sum += d[i];
    if (sum < 0.0f) /* products of positive values: never, but the compiler cannot know */
        *sink = sum;
#else
    (void)sink;
    (void)rounds;
#endif
}

static const void *const kernels[CEILING_TENSOR_TYPES] = {
    (const void *)tensor_kernel<CEILING_TENSOR_BF16_IN>, (const void *)tensor_kernel<CEILING_TENSOR_FP16_IN>,
    (const void *)tensor_kernel<CEILING_TENSOR_TF32_IN>, (const void *)tensor_kernel<CEILING_TENSOR_FP8_IN>};

extern "C" const char *ceiling_tensor_unavailable(int major, int minor)
{
#if defined(MEMSCOPE_SM90A)
    return major == 9 && minor == 0 ? NULL : "tensor ceiling kernels need sm_90a: a GPU of compute capability 9.0";
#else
    (void)major;
    (void)minor;
    return "tensor ceiling kernels need sm_90a: this build has none (make CUDA_ARCH=90 builds them)";
#endif
}

extern "C" const char *ceiling_tensor(enum ceiling_tensor_type t, float *sink, int rounds, int blocks,
                                      cudaStream_t stream)
{
    if (t < 0 || t >= CEILING_TENSOR_TYPES)
        return "unknown tensor ceiling type";
    void *args[] = {&sink, &rounds};
    cudaError_t rc = cudaLaunchKernel(kernels[t], dim3(blocks), dim3(CEILING_THREADS), args, 0, stream);
    return rc == cudaSuccess ? launch_status() : cudaGetErrorString(rc);
}

extern "C" const void *ceiling_tensor_kernel(enum ceiling_tensor_type t)
{
    return t >= 0 && t < CEILING_TENSOR_TYPES ? kernels[t] : NULL;
}
