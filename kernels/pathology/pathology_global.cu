/*
 * The global-memory cases: one-shot copies whose only difference is the address pattern (uncoalesced loads or
 * stores, a partial stride, a misaligned start), the grid-stride copy loop whose only difference is what limits
 * its occupancy (registers, shared memory, block size), and a stream over an L2-resident buffer. Every kernel has
 * a name of its own, so that a profile tells the cases apart. Pointers are deliberately not __restrict__: a load
 * cannot pass a store before it, so the loads a thread has in flight are the ones written before its first store.
 * A copy is DRAM-bound only with enough bytes in flight to cover the DRAM's latency at its bandwidth (Little's
 * law): one float per thread at full occupancy is 1 MiB on 132 SMs, enough for an H100's 3.35 TB/s to read
 * dram_bound but not an H200's 4.8 (README.md); so the one-shot copies keep ONE_SHOT_IN_FLIGHT loads in flight a
 * thread and the copy loop LOOP_IN_FLIGHT.
 */
#include "../l2_only.cuh"
#include "../launch_status.cuh"
#include "pathology.h"

#define ONE_SHOT_THREADS 256
#define ONE_SHOT_IN_FLIGHT 4 /* elements a thread of a one-shot copy loads before it stores any */
static_assert(PATHOLOGY_ELEMENTS % (ONE_SHOT_IN_FLIGHT * ONE_SHOT_THREADS) == 0,
              "the one-shot grid's threads take the elements in whole rounds");

/* Element e of the ONE_SHOT_IN_FLIGHT a thread copies: the grid's threads take n / ONE_SHOT_IN_FLIGHT consecutive
 * elements a round, so each warp request is 32 consecutive elements, as one element a thread would be. */
__device__ __forceinline__ int one_shot_element(int e)
{
    return e * gridDim.x * blockDim.x + blockIdx.x * blockDim.x + threadIdx.x;
}

/* out[i * STORE] = in[i * LOAD] for i < n: LOAD or STORE 1 is a coalesced warp (4 sectors per request of 32
 * floats), 4 touches 16 sectors, 8 touches 32 (every lane its own sector). */
template <int LOAD, int STORE> __device__ __forceinline__ void strided_copy(const float *in, float *out, int n)
{
    float v[ONE_SHOT_IN_FLIGHT];
#pragma unroll
    for (int e = 0; e < ONE_SHOT_IN_FLIGHT; ++e)
        if (one_shot_element(e) < n)
            v[e] = in[(size_t)one_shot_element(e) * LOAD];
#pragma unroll
    for (int e = 0; e < ONE_SHOT_IN_FLIGHT; ++e)
        if (one_shot_element(e) < n)
            out[(size_t)one_shot_element(e) * STORE] = v[e];
}

__global__ void coalesced_copy_kernel(const float *in, float *out, int n)
{
    strided_copy<1, 1>(in, out, n);
}
__global__ void uncoalesced_loads_kernel(const float *in, float *out, int n)
{
    strided_copy<PATHOLOGY_UNCOALESCED_STRIDE, 1>(in, out, n);
}
__global__ void uncoalesced_stores_kernel(const float *in, float *out, int n)
{
    strided_copy<1, PATHOLOGY_UNCOALESCED_STRIDE>(in, out, n);
}
__global__ void strided_loads_kernel(const float *in, float *out, int n)
{
    strided_copy<PATHOLOGY_PARTIAL_STRIDE, 1>(in, out, n);
}

/* Each warp request copies 32 floats of one row of a 64-float (256-byte) row pitch (element i is row i / 32's float
 * i % 32), starting OFFSET floats in: offset 0 is 4 sectors per request, offset 1 straddles 5 (and, rows being apart,
 * no other request reads the fifth). */
template <int OFFSET> __device__ __forceinline__ void row_copy(const float *in, float *out, int n)
{
    float v[ONE_SHOT_IN_FLIGHT];
#pragma unroll
    for (int e = 0; e < ONE_SHOT_IN_FLIGHT; ++e) {
        const int i = one_shot_element(e);
        if (i < n)
            v[e] = in[(size_t)(i / 32) * 64 + OFFSET + i % 32];
    }
#pragma unroll
    for (int e = 0; e < ONE_SHOT_IN_FLIGHT; ++e)
        if (one_shot_element(e) < n)
            out[one_shot_element(e)] = v[e];
}

__global__ void aligned_loads_kernel(const float *in, float *out, int n)
{
    row_copy<0>(in, out, n);
}
__global__ void misaligned_loads_kernel(const float *in, float *out, int n)
{
    row_copy<1>(in, out, n);
}

#define ONE_SHOT(launcher, kernel)                                                                               \
    extern "C" const char *launcher(const struct pathology_buffers *b, cudaStream_t stream)                      \
    {                                                                                                            \
        kernel<<<PATHOLOGY_ELEMENTS / ONE_SHOT_IN_FLIGHT / ONE_SHOT_THREADS, ONE_SHOT_THREADS, 0, stream>>>(     \
            b->src, b->dst, PATHOLOGY_ELEMENTS);                                                                 \
        return launch_status();                                                                                  \
    }
ONE_SHOT(pathology_coalesced_copy, coalesced_copy_kernel)
ONE_SHOT(pathology_uncoalesced_loads, uncoalesced_loads_kernel)
ONE_SHOT(pathology_uncoalesced_stores, uncoalesced_stores_kernel)
ONE_SHOT(pathology_strided_loads, strided_loads_kernel)
ONE_SHOT(pathology_aligned_loads, aligned_loads_kernel)
ONE_SHOT(pathology_misaligned_loads, misaligned_loads_kernel)

/* The copy loop: LOOP_THREADS threads copy PATHOLOGY_ELEMENTS floats grid-stride, LOOP_ELEMENTS each, LOOP_IN_FLIGHT
 * loads in flight per thread (the next round's loads wait for this round's stores, which they may alias). At full
 * occupancy (64 warps per SM) that is enough to keep the DRAM busy; at 8 or 32 warps it is not. */
#define LOOP_THREADS (1024 * 256)
#define LOOP_ELEMENTS (PATHOLOGY_ELEMENTS / LOOP_THREADS)
#define LOOP_IN_FLIGHT 2
/* Registers the register hog keeps live across its loop: above 128, one 256-thread block per SM. */
#define HOG_REGISTERS 192
/* Dynamic shared memory the shared-memory hog asks for: two blocks would need more than an SM's 228 KB. */
#define HOG_SHARED_BYTES (160 * 1024)

__device__ __forceinline__ float copy_loop(const float *in, float *out, int n)
{
    const int stride = gridDim.x * blockDim.x;
    float v[LOOP_IN_FLIGHT] = {0.0f};
#pragma unroll 1
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += LOOP_IN_FLIGHT * stride) {
#pragma unroll
        for (int e = 0; e < LOOP_IN_FLIGHT; ++e)
            if (i + e * stride < n)
                v[e] = in[i + e * stride];
#pragma unroll
        for (int e = 0; e < LOOP_IN_FLIGHT; ++e)
            if (i + e * stride < n)
                out[i + e * stride] = v[e];
    }
    return v[LOOP_IN_FLIGHT - 1];
}

__global__ void __launch_bounds__(256, 8) copy_loop_kernel(const float *in, float *out, int n)
{
    copy_loop(in, out, n);
}

/* HOG_REGISTERS values loaded before the loop and folded with its last value after it: the loads cannot sink
 * past the loop's stores (they may alias) nor the folds rise above its end, so all stay live, in registers. */
__global__ void __launch_bounds__(256, 1) register_hog_copy_kernel(const float *in, float *out, int n,
                                                                   const float *weights)
{
    float r[HOG_REGISTERS];
#pragma unroll
    for (int j = 0; j < HOG_REGISTERS; ++j)
        r[j] = weights[j];
    float last = copy_loop(in, out, n), sum = 0.0f;
#pragma unroll
    for (int j = 0; j < HOG_REGISTERS; ++j)
        sum = fmaf(r[j], last, sum);
    if (sum == -1.0f) /* never: the weights and the copied values are non-negative */
        out[0] = sum;
}

/* The dynamic shared memory is asked for and never touched: the launch alone limits the SM to one block. */
__global__ void __launch_bounds__(256, 1) shared_hog_copy_kernel(const float *in, float *out, int n)
{
    copy_loop(in, out, n);
}

__global__ void __launch_bounds__(32) tiny_block_copy_kernel(const float *in, float *out, int n)
{
    copy_loop(in, out, n);
}

extern "C" const char *pathology_copy_loop(const struct pathology_buffers *b, cudaStream_t stream)
{
    copy_loop_kernel<<<LOOP_THREADS / 256, 256, 0, stream>>>(b->src, b->dst, PATHOLOGY_ELEMENTS);
    return launch_status();
}

extern "C" const char *pathology_register_hog_copy(const struct pathology_buffers *b, cudaStream_t stream)
{
    register_hog_copy_kernel<<<LOOP_THREADS / 256, 256, 0, stream>>>(b->src, b->dst, PATHOLOGY_ELEMENTS, b->src);
    return launch_status();
}

extern "C" const char *pathology_shared_hog_copy(const struct pathology_buffers *b, cudaStream_t stream)
{
    cudaError_t rc = cudaFuncSetAttribute(shared_hog_copy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          HOG_SHARED_BYTES);
    if (rc != cudaSuccess)
        return cudaGetErrorString(rc);
    shared_hog_copy_kernel<<<LOOP_THREADS / 256, 256, HOG_SHARED_BYTES, stream>>>(b->src, b->dst,
                                                                                  PATHOLOGY_ELEMENTS);
    return launch_status();
}

extern "C" const char *pathology_tiny_block_copy(const struct pathology_buffers *b, cudaStream_t stream)
{
    tiny_block_copy_kernel<<<LOOP_THREADS / 32, 32, 0, stream>>>(b->src, b->dst, PATHOLOGY_ELEMENTS);
    return launch_status();
}

/* The L2 stream: L2_PASSES passes over the first L2_STREAM_BYTES of src (a sixth of the H100's L2), 128-bit loads
 * that skip the L1 (ld.global.cg, volatile: none dropped or merged), four in flight per thread; each thread writes
 * its sum once. After the first pass every load is an L2 hit. */
#define L2_STREAM_BYTES (8u << 20)
#define L2_PASSES 64
#define L2_BLOCKS (132 * 8)

__global__ void __launch_bounds__(256, 8) l2_stream_kernel(const float4 *in, float *out, int words, int passes)
{
    int stride = gridDim.x * blockDim.x, first = blockIdx.x * blockDim.x + threadIdx.x;
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int p = 0; p < passes; ++p)
        for (int i = first; i < words; i += 4 * stride) {
#pragma unroll
            for (int k = 0; k < 4; ++k)
                if (i + k * stride < words) {
                    float4 v = load_cg(in + i + k * stride);
                    sum[k] += v.x + v.y + v.z + v.w;
                }
        }
    out[first] = sum[0] + sum[1] + sum[2] + sum[3];
}

extern "C" const char *pathology_l2_stream(const struct pathology_buffers *b, cudaStream_t stream)
{
    l2_stream_kernel<<<L2_BLOCKS, 256, 0, stream>>>((const float4 *)b->src, b->dst, L2_STREAM_BYTES / 16, L2_PASSES);
    return launch_status();
}
