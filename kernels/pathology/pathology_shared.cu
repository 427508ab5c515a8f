/*
 * On-chip memory cases. A block's 32 x (32 + PAD) float tile read or written by column: with PAD 0 the 32 lanes'
 * words are 32 apart, all in one bank (32 wavefronts per instruction); with PAD 1 they are 33 apart, one per bank
 * (1 wavefront). The accesses are volatile so that none is hoisted out of the rounds or merged. And a thread's
 * array indexed by a value the compiler cannot know, so it lives in local memory (LDL/STL) instead of registers.
 */
#include "../launch_status.cuh"
#include "pathology.h"

#define SHARED_BLOCKS (PATHOLOGY_SHARED_THREADS / 256)

/* The tile is filled row by row (conflict-free: a warp writes one row), then each thread reads its lane's row of
 * the tile 32 x PATHOLOGY_SHARED_LOAD_ROUNDS times, column after column: out[t] = rounds x sum of the row, which
 * is rounds x (1024 lane + 496). */
template <int PAD> __device__ __forceinline__ void shared_loads(float *out)
{
    __shared__ float tile[32][32 + PAD];
    for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
        tile[i / 32][i % 32] = (float)i;
    __syncthreads();
    const volatile float *row = tile[threadIdx.x % 32];
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll 1
    for (int r = 0; r < PATHOLOGY_SHARED_LOAD_ROUNDS; ++r)
#pragma unroll
        for (int c = 0; c < 32; ++c)
            acc[c % 4] += row[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

__global__ void __launch_bounds__(256, 8) shared_load_conflicts_kernel(float *out)
{
    shared_loads<0>(out);
}
__global__ void __launch_bounds__(256, 8) shared_load_padded_kernel(float *out)
{
    shared_loads<1>(out);
}

/* Warp w owns columns 4w..4w+3 of the tile; each thread writes its lane's row in them, 4 words per round, the
 * store count s = 4 r + k as the value. Then thread (w, lane) reads tile[w][lane], conflict-free: the last value
 * written there, 4 (rounds - 1) + lane % 4. */
template <int PAD> __device__ __forceinline__ void shared_stores(float *out)
{
    __shared__ float tile[32][32 + PAD];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    volatile float *mine = &tile[lane][4 * warp];
    float value = 0.0f;
#pragma unroll 1
    for (int r = 0; r < PATHOLOGY_SHARED_STORE_ROUNDS; ++r)
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            mine[k] = value;
            value += 1.0f;
        }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[warp][lane];
}

__global__ void __launch_bounds__(256, 8) shared_store_conflicts_kernel(float *out)
{
    shared_stores<0>(out);
}
__global__ void __launch_bounds__(256, 8) shared_store_padded_kernel(float *out)
{
    shared_stores<1>(out);
}

#define SHARED_CASE(launcher, kernel)                                                                            \
    extern "C" const char *launcher(const struct pathology_buffers *b, cudaStream_t stream)                      \
    {                                                                                                            \
        kernel<<<SHARED_BLOCKS, 256, 0, stream>>>(b->dst);                                                       \
        return launch_status();                                                                                  \
    }
SHARED_CASE(pathology_shared_load_conflicts, shared_load_conflicts_kernel)
SHARED_CASE(pathology_shared_load_padded, shared_load_padded_kernel)
SHARED_CASE(pathology_shared_store_conflicts, shared_store_conflicts_kernel)
SHARED_CASE(pathology_shared_store_padded, shared_store_padded_kernel)

/* A 64-word array per thread, a[j] = j, updated PATHOLOGY_LOCAL_ROUNDS times at j from a full-period LCG over 64
 * seeded by a kernel argument: warp-uniform (so each LDL/STL is one coalesced 128-byte request, no other waste)
 * but unknown to the compiler, which must therefore keep the array in local memory. out[t] = a[seed], the same
 * for every thread. */
__global__ void __launch_bounds__(256, 8) local_array_kernel(float *out, unsigned seed)
{
    float a[PATHOLOGY_LOCAL_WORDS];
#pragma unroll
    for (int j = 0; j < PATHOLOGY_LOCAL_WORDS; ++j)
        a[j] = (float)j;
    unsigned j = seed;
#pragma unroll 1
    for (int r = 0; r < PATHOLOGY_LOCAL_ROUNDS; ++r) {
        j = (j * 5u + 3u) % PATHOLOGY_LOCAL_WORDS;
        a[j] = a[j] * 0.5f + 1.0f;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a[seed % PATHOLOGY_LOCAL_WORDS];
}

extern "C" const char *pathology_local_array(const struct pathology_buffers *b, cudaStream_t stream)
{
    local_array_kernel<<<PATHOLOGY_LOCAL_THREADS / 256, 256, 0, stream>>>(b->dst, PATHOLOGY_LOCAL_SEED);
    return launch_status();
}
