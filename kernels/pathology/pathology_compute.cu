/*
 * Arithmetic cases, one FMA body: FMA_CHAINS independent accumulators per thread (enough independent FFMAs to
 * keep the FMA pipe busy at any occupancy from 2 warps per scheduler), each advanced `iterations` times by
 * acc = acc * a + 0.001f, a from the lane's group of 8 (lane % 8). The cases change one thing each: the branch
 * that runs the body (a different group each time: divergence), the literal (0.001 is a double: FP64 and
 * conversions), the grid (8 blocks; one block past a full wave). And an mma.sync loop for the tensor pipe.
 */
#include <stdint.h>

#include "../launch_status.cuh"
#include "pathology.h"

#define FMA_CHAINS 8
#define FMA_BLOCKS (PATHOLOGY_FMA_THREADS / 256) /* one full wave of 8 blocks on each of 132 SMs */
#define FMA_ITERATIONS 512
#define EIGHT_BLOCKS 8 /* the same work as FMA_BLOCKS blocks: 132 x the iterations each */
#define WAVE_THREADS 1024
#define WAVE_ITERATIONS 1024

enum fma_literal { FLOAT_LITERAL, DOUBLE_LITERAL };

template <enum fma_literal LITERAL> __device__ __forceinline__ float fma_body(int group, int iterations)
{
    float a = 0.999f - (float)group * 1e-4f, acc[FMA_CHAINS];
#pragma unroll
    for (int k = 0; k < FMA_CHAINS; ++k)
        acc[k] = (float)k * 0.125f;
#pragma unroll 4
    for (int i = 0; i < iterations; ++i)
#pragma unroll
        for (int k = 0; k < FMA_CHAINS; ++k) {
            if (LITERAL == DOUBLE_LITERAL)
                acc[k] = acc[k] * a + 0.001; /* the planted bug: a double literal in float code */
            else
                acc[k] = acc[k] * a + 0.001f;
        }
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < FMA_CHAINS; ++k)
        sum += acc[k];
    return sum;
}

__device__ __forceinline__ void fma_store(float *out, float value)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

__global__ void __launch_bounds__(256, 8) fma_chain_kernel(float *out, int iterations)
{
    fma_store(out, fma_body<FLOAT_LITERAL>(threadIdx.x % 8, iterations));
}

__global__ void __launch_bounds__(256, 8) eight_blocks_kernel(float *out, int iterations)
{
    fma_store(out, fma_body<FLOAT_LITERAL>(threadIdx.x % 8, iterations));
}

__global__ void __launch_bounds__(256, 8) double_literal_kernel(float *out, int iterations)
{
    fma_store(out, fma_body<DOUBLE_LITERAL>(threadIdx.x % 8, iterations));
}

/* The groups take turns: for group p only the 4 lanes with lane % 8 == p run the body, so each warp runs it 8
 * times over with 4 of its 32 lanes active. Each thread computes exactly what fma_chain_kernel's does. */
__global__ void __launch_bounds__(256, 8) divergent_fma_kernel(float *out, int iterations)
{
    int group = threadIdx.x % 8;
    float result = 0.0f;
#pragma unroll 1
    for (int p = 0; p < 8; ++p)
        if (group == p)
            result = fma_body<FLOAT_LITERAL>(p, iterations);
    fma_store(out, result);
}

/* 1024-thread blocks, two per SM: a wave is 2 x SMs blocks. */
__global__ void __launch_bounds__(WAVE_THREADS, 2) full_wave_kernel(float *out, int iterations)
{
    fma_store(out, fma_body<FLOAT_LITERAL>(threadIdx.x % 8, iterations));
}

__global__ void __launch_bounds__(WAVE_THREADS, 2) one_block_tail_kernel(float *out, int iterations)
{
    fma_store(out, fma_body<FLOAT_LITERAL>(threadIdx.x % 8, iterations));
}

extern "C" const char *pathology_fma_chain(const struct pathology_buffers *b, cudaStream_t stream)
{
    fma_chain_kernel<<<FMA_BLOCKS, 256, 0, stream>>>(b->dst, FMA_ITERATIONS);
    return launch_status();
}

extern "C" const char *pathology_eight_blocks(const struct pathology_buffers *b, cudaStream_t stream)
{
    eight_blocks_kernel<<<EIGHT_BLOCKS, 256, 0, stream>>>(b->dst, FMA_ITERATIONS * (FMA_BLOCKS / EIGHT_BLOCKS));
    return launch_status();
}

extern "C" const char *pathology_double_literal(const struct pathology_buffers *b, cudaStream_t stream)
{
    double_literal_kernel<<<FMA_BLOCKS, 256, 0, stream>>>(b->dst, FMA_ITERATIONS);
    return launch_status();
}

extern "C" const char *pathology_divergent_fma(const struct pathology_buffers *b, cudaStream_t stream)
{
    divergent_fma_kernel<<<FMA_BLOCKS, 256, 0, stream>>>(b->dst, FMA_ITERATIONS);
    return launch_status();
}

static const char *wave_blocks(int extra, int *blocks)
{
    int sms = 0;
    const char *why = pathology_sm_count(&sms);
    *blocks = 2 * sms + extra;
    return why;
}

extern "C" const char *pathology_full_wave(const struct pathology_buffers *b, cudaStream_t stream)
{
    int blocks = 0;
    const char *why = wave_blocks(0, &blocks);
    if (why != NULL)
        return why;
    full_wave_kernel<<<blocks, WAVE_THREADS, 0, stream>>>(b->dst, WAVE_ITERATIONS);
    return launch_status();
}

extern "C" const char *pathology_one_block_tail(const struct pathology_buffers *b, cudaStream_t stream)
{
    int blocks = 0;
    const char *why = wave_blocks(1, &blocks);
    if (why != NULL)
        return why;
    one_block_tail_kernel<<<blocks, WAVE_THREADS, 0, stream>>>(b->dst, WAVE_ITERATIONS);
    return launch_status();
}

/* The tensor case: every warp advances MMA_CHAINS independent mma.sync.m16n8k16 bf16 -> f32 chains (one
 * HMMA.16816.F32.BF16 each in sm_90 SASS, 4096 operations), MMA_REPETITIONS times; 8 blocks of 8 warps per SM
 * (a full wave at full occupancy: 16 warps of 2 chains each per scheduler).
 * Operands are small bf16 values from the lane (as kernels/truth/truth_mma.cu); each thread stores its sum. */
#define MMA_CHAINS 2
#define MMA_REPETITIONS 1024
#define MMA_BLOCKS (132 * 8)

__global__ void __launch_bounds__(256, 8) mma_loop_kernel(float *out, int repetitions)
{
    uint32_t lane = threadIdx.x & 31u;
    uint32_t a = 0x3F803F80u + lane, b = 0x3F803F80u ^ (lane << 16);
    float d[MMA_CHAINS][4] = {};
#pragma unroll 1
    for (int r = 0; r < repetitions; ++r)
#pragma unroll
        for (int c = 0; c < MMA_CHAINS; ++c)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                         "{%8, %9}, {%0, %1, %2, %3};"
                         : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                         : "r"(a), "r"(a ^ (uint32_t)c), "r"(a ^ 2u), "r"(a ^ 3u), "r"(b), "r"(b ^ 1u));
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < MMA_CHAINS; ++c)
        sum += (d[c][0] + d[c][1]) + (d[c][2] + d[c][3]);
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" const char *pathology_mma_loop(const struct pathology_buffers *b, cudaStream_t stream)
{
    mma_loop_kernel<<<MMA_BLOCKS, 256, 0, stream>>>(b->dst, MMA_REPETITIONS);
    return launch_status();
}
