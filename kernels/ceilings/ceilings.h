/*
 * Ceiling kernels: each drives one level of the GPU as hard as a kernel can,
 * so that timing it gives that level's bandwidth or arithmetic rate on the GPU
 * at hand (harness/ceilings/ times them and records the figures). What each
 * moves or computes is given below in closed form from its launch shape.
 *
 * Every kernel runs blocks of CEILING_THREADS threads; the caller picks the
 * grid (every SM filled at full occupancy: the accessor names the __global__
 * function, for cudaOccupancyMaxActiveBlocksPerMultiprocessor). Each launcher
 * returns NULL when the work was enqueued, else a static reason.
 */
#ifndef MEMSCOPE_CEILINGS_H
#define MEMSCOPE_CEILINGS_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CEILING_THREADS 256

/* Streaming copy, grid-stride: out[i] = in[i] for i < count (128-bit words), passes times over. Loads and stores
 * go through the L2 only (ld.global.cg, st.global.cg): nothing hits in the L1. Moves 2 * 16 * count * passes
 * bytes (read + written). Over buffers several times the L2 that is DRAM traffic; over buffers that fit in a
 * fraction of the L2, repeated, it is L2 traffic. */
const char *ceiling_copy(const float4 *in, float4 *out, size_t count, int passes, int blocks, cudaStream_t stream);
const void *ceiling_copy_kernel(void);

/* Shared-memory loads: each thread issues CEILING_SHARED_LOADS_PER_ROUND 128-bit loads per round, rounds times; a
 * warp's 32 lanes read 512 consecutive bytes (4 wavefronts of 128 B, no bank conflict). Moves 16 bytes per thread
 * per load. sink is written only if the loaded values sum to an impossible value: the loads cannot be dropped. */
#define CEILING_SHARED_LOADS_PER_ROUND 32
const char *ceiling_shared_loads(float *sink, int rounds, int blocks, cudaStream_t stream);
const void *ceiling_shared_loads_kernel(void);

/* Fused multiply-adds: CEILING_FMA_CHAINS independent accumulator chains per thread, each advanced
 * CEILING_FMA_PER_CHAIN times per round, rounds times: 2 FLOP per FMA. sink is written only if the accumulators
 * end on an impossible value. One template: FFMA for float, DFMA for double. */
#define CEILING_FMA_CHAINS 8
#define CEILING_FMA_PER_CHAIN 32
const char *ceiling_ffma(float *sink, int rounds, int blocks, cudaStream_t stream);
const char *ceiling_dfma(double *sink, int rounds, int blocks, cudaStream_t stream);
const void *ceiling_ffma_kernel(void);
const void *ceiling_dfma_kernel(void);

#ifdef __cplusplus
}
#endif

#endif
