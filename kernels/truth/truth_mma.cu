/*
 * Tensor-core ground truth: every warp runs a chain of `repetitions` mma.sync.m16n8k16 bf16 -> f32 (inline PTX,
 * one HMMA.16816.F32.BF16 in sm_90 SASS each), so its bf16 tensor operations are known in closed form:
 * 2 x 16 x 8 x 16 = 4096 per instruction, per warp, per repetition. Each mma adds to the last one's result and
 * every thread stores its sum, so none can be left out.
 */
#include <stdint.h>

#include "../launch_status.cuh"
#include "truth.h"

__global__ void mma_bf16_kernel(float *out, int repetitions)
{
    /* Operands from the thread's index: two bf16 per register (1.0 = 0x3F80, a few small multiples of 2^-7). */
    uint32_t lane = threadIdx.x & 31u;
    uint32_t a = 0x3F803F80u + lane, b = 0x3F803F80u ^ (lane << 16);
    float d0 = 0.0f, d1 = 0.0f, d2 = 0.0f, d3 = 0.0f;
    for (int r = 0; r < repetitions; ++r)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                     "{%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(a), "r"(a ^ 1u), "r"(a ^ 2u), "r"(a ^ 3u), "r"(b), "r"(b ^ 1u));
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = d0 + d1 + d2 + d3;
}

extern "C" const char *truth_mma_bf16(float *out, int blocks, int warps_per_block, int repetitions,
                                      cudaStream_t stream)
{
    mma_bf16_kernel<<<blocks, warps_per_block * 32, 0, stream>>>(out, repetitions);
    return launch_status();
}
