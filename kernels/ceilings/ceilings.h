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

/* Tensor cores: each block is CEILING_TENSOR_WARPGROUPS warpgroups (CEILING_THREADS threads), each issuing
 * CEILING_TENSOR_WGMMA_PER_ROUND wgmma.mma_async m64n256kK per round, rounds times, on operand tiles resident in
 * shared memory (A 64 x K, B 256 x K, a fixed pattern of small positive normal values: no global traffic) into
 * FP32 accumulators kept in registers: 2 * 64 * 256 * K FLOP per wgmma, K 16 for bf16 and fp16, 8 for tf32, 32 for
 * fp8 (e4m3), 32 bytes of each row in every type. wgmma needs the sm_90a target: the launcher says why not where
 * the build has none (CUDA_ARCH other than 90). sink is written only if the accumulators end negative: never. */
enum ceiling_tensor_type { CEILING_TENSOR_BF16_IN, CEILING_TENSOR_FP16_IN, CEILING_TENSOR_TF32_IN, CEILING_TENSOR_FP8_IN,
                           CEILING_TENSOR_TYPES };
#define CEILING_TENSOR_WARPGROUPS (CEILING_THREADS / 128)
#define CEILING_TENSOR_WGMMA_PER_ROUND 16
#define CEILING_TENSOR_M 64
#define CEILING_TENSOR_N 256
static inline int ceiling_tensor_k(enum ceiling_tensor_type t)
{
    return t == CEILING_TENSOR_TF32_IN ? 8 : t == CEILING_TENSOR_FP8_IN ? 32 : 16;
}
/* NULL when this build can run the tensor kernels on a GPU of compute capability major.minor (sm_90a code runs on
 * 9.0 only), else why not. */
const char *ceiling_tensor_unavailable(int major, int minor);
const char *ceiling_tensor(enum ceiling_tensor_type t, float *sink, int rounds, int blocks, cudaStream_t stream);
const void *ceiling_tensor_kernel(enum ceiling_tensor_type t);

#ifdef __cplusplus
}
#endif

#endif
