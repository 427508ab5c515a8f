/*
 * Cases about waiting: every thread adding to one address (the L2 serialises them), a kernel too short for its
 * launch, and a warp per SM chasing pointers (each load's address is the last load's value).
 */
#include "../launch_status.cuh"
#include "pathology.h"

#define ATOMIC_BLOCKS (132 * 8)
#define ATOMIC_REPETITIONS 16

/* target is counter + (threadIdx.x & spread), spread 0 at run time: one address, but not one the compiler can
 * see is warp-uniform, so it cannot fold a warp's adds into one (each thread's RED reaches the L2). */
__global__ void __launch_bounds__(256, 8) atomic_one_address_kernel(unsigned *counter, unsigned spread)
{
    unsigned *target = counter + (threadIdx.x & spread);
#pragma unroll 1
    for (int r = 0; r < ATOMIC_REPETITIONS; ++r)
        atomicAdd(target, 1u);
}

extern "C" const char *pathology_atomic_one_address(const struct pathology_buffers *b, cudaStream_t stream)
{
    atomic_one_address_kernel<<<ATOMIC_BLOCKS, 256, 0, stream>>>(b->counter, 0u);
    return launch_status();
}

/* One warp stores its lane: a few microseconds of GPU time, most of it the launch. */
__global__ void tiny_kernel(float *out)
{
    out[threadIdx.x] = (float)threadIdx.x;
}

extern "C" const char *pathology_tiny_kernel(const struct pathology_buffers *b, cudaStream_t stream)
{
    tiny_kernel<<<1, 32, 0, stream>>>(b->dst);
    return launch_status();
}

/* A warp a block, a block per SM, each warp PATHOLOGY_CHASE_STEPS dependent 128-byte loads (row = chase[32 row + lane],
 * every word of a row the same next row) from its own start: coalesced, nothing wasted, nothing in parallel within
 * an SM. out[32 w + lane] = the row warp w ends on. */
__global__ void __launch_bounds__(32) pointer_chase_kernel(const unsigned *chase, float *out, int steps)
{
    unsigned row = PATHOLOGY_CHASE_START(blockIdx.x);
#pragma unroll 1
    for (int s = 0; s < steps; ++s)
        row = chase[row * 32 + threadIdx.x];
    out[blockIdx.x * 32 + threadIdx.x] = (float)row;
}

extern "C" const char *pathology_pointer_chase(const struct pathology_buffers *b, cudaStream_t stream)
{
    pointer_chase_kernel<<<PATHOLOGY_CHASE_WARPS, 32, 0, stream>>>(b->chase, b->dst, PATHOLOGY_CHASE_STEPS);
    return launch_status();
}
