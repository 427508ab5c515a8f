/*
 * The L1/shared ceiling: 128-bit shared loads, as many as a thread can issue. Lane l of every warp reads word
 * l + 32 u of a block's array for u < CEILING_SHARED_LOADS_PER_ROUND, so a warp's load covers 512 consecutive
 * bytes: four wavefronts of 128 B (one per quarter warp), none of them a bank conflict, and the data stage moves
 * its peak of 128 B per clock. The loads are volatile PTX, so that the compiler keeps every one of them (it could
 * otherwise see that a round reads what the round before read); the sum of what they load decides whether sink is
 * written, which it never is.
 */
#include "../launch_status.cuh"
#include "ceilings.h"

#define WORDS (32 * CEILING_SHARED_LOADS_PER_ROUND) /* 16 KB of 128-bit words per block */
#define WORD_BYTES 16

static __device__ __forceinline__ float4 load_shared(unsigned address)
{
    float4 v;
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(address));
    return v;
}

__global__ void __launch_bounds__(CEILING_THREADS) shared_loads_kernel(float *sink, int rounds)
{
    __shared__ float4 words[WORDS];
    for (int i = threadIdx.x; i < WORDS; i += blockDim.x)
        words[i] = make_float4((float)i, 1.0f, 2.0f, 3.0f);
    __syncthreads();
    unsigned base = (unsigned)__cvta_generic_to_shared(&words[threadIdx.x % 32]);
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
        for (int u = 0; u < CEILING_SHARED_LOADS_PER_ROUND; ++u) {
            float4 v = load_shared(base + u * 32 * WORD_BYTES);
            acc.x += v.x;
            acc.y += v.y;
            acc.z += v.z;
            acc.w += v.w;
        }
    }
    if (acc.x + acc.y + acc.z + acc.w == -1.0f) /* the words are non-negative: never, but the compiler cannot know */
        *sink = acc.x;
}

extern "C" const char *ceiling_shared_loads(float *sink, int rounds, int blocks, cudaStream_t stream)
{
    shared_loads_kernel<<<blocks, CEILING_THREADS, 0, stream>>>(sink, rounds);
    return launch_status();
}

extern "C" const void *ceiling_shared_loads_kernel(void)
{
    return (const void *)shared_loads_kernel;
}
