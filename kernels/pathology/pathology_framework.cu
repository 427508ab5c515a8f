/*
 * Framework-shaped cases (issue 47): the kernels a PyTorch program launches look like these, and the findings first
 * failed on their shapes. A block reduction written as the classic first attempt (`tid % (2 * s)`: a modulo by a
 * variable, which compiles to conversions around a reciprocal, and an if the compiler predicates) beside its
 * sequential-addressing fix; a fill of one element (PyTorch's FillFunctor zeroing a scalar); a vectorized
 * elementwise kernel whose last wave is partial, memory-bound so that its tail costs little; a row-wise
 * normalization (layer norm's shape: a reduction per row, then an elementwise pass over it); and cuBLAS's bf16 GEMM,
 * the TMA and wgmma kernel a model spends most of its time in, whose tile scheduler issues about one global atomic a
 * block beside no LSU load at all.
 */
#include "../launch_status.cuh"
#include "../truth/truth.h"
#include "pathology.h"

#define REDUCE_THREADS PATHOLOGY_REDUCE_THREADS
#define REDUCE_BLOCKS (PATHOLOGY_ELEMENTS / REDUCE_THREADS)
#define FILL_THREADS 128
#define TAIL_THREADS 256
#define TAIL_VECTORS 4            /* float4s per thread, one load of each in flight together */
#define TAIL_BLOCKS_PER_SM 8      /* 2048 threads an SM / 256 */
#define TAIL_WAVES_PERCENT 517    /* 5.17 waves: the last fills 17 % of the slots */
#define ROW_FLOATS PATHOLOGY_ROW_FLOATS
#define ROW_THREADS 256
#define ROW_VECTORS (ROW_FLOATS / 4 / ROW_THREADS) /* float4s per thread */
#define ROWS (PATHOLOGY_ELEMENTS / ROW_FLOATS)

/* Each block sums its 256 floats in shared memory; thread 0 writes the block's sum. */
__device__ __forceinline__ void load_partial(const float *src, float *partial)
{
    partial[threadIdx.x] = src[blockIdx.x * REDUCE_THREADS + threadIdx.x];
    __syncthreads();
}

/* The planted cause: `tid % (2 * s)` with s a variable (the loop is not unrolled): an integer modulo, I2F, MUFU.RCP
 * and F2I for every thread at every step, and an add the compiler predicates (half the lanes off at the first step,
 * more at each next). */
__global__ void __launch_bounds__(REDUCE_THREADS) modulo_reduction_kernel(const float *src, float *out)
{
    __shared__ float partial[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    load_partial(src, partial);
#pragma unroll 1
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

/* The fix: sequential addressing, the active threads the first s, no modulo; the same sums. */
__global__ void __launch_bounds__(REDUCE_THREADS) sequential_reduction_kernel(const float *src, float *out)
{
    __shared__ float partial[REDUCE_THREADS];
    unsigned tid = threadIdx.x;
    load_partial(src, partial);
#pragma unroll 1
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

__global__ void __launch_bounds__(FILL_THREADS) one_element_fill_kernel(float *out, float value, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = value;
}

/* out = 2 in + 1, float4 by float4: each thread its TAIL_VECTORS vectors a block's width apart (coalesced). */
__global__ void __launch_bounds__(TAIL_THREADS) vector_tail_kernel(const float4 *in, float4 *out)
{
    size_t base = (size_t)blockIdx.x * TAIL_THREADS * TAIL_VECTORS + threadIdx.x;
    float4 v[TAIL_VECTORS];
#pragma unroll
    for (int k = 0; k < TAIL_VECTORS; ++k)
        v[k] = in[base + (size_t)k * TAIL_THREADS];
#pragma unroll
    for (int k = 0; k < TAIL_VECTORS; ++k)
        out[base + (size_t)k * TAIL_THREADS] =
            make_float4(2.0f * v[k].x + 1.0f, 2.0f * v[k].y + 1.0f, 2.0f * v[k].z + 1.0f, 2.0f * v[k].w + 1.0f);
}

/* The block's sum of x: the warps' shuffles, then the first warp over the warps' sums in shared memory. */
__device__ __forceinline__ float block_sum(float x, float *warp_sums)
{
    for (int offset = 16; offset > 0; offset /= 2)
        x += __shfl_xor_sync(0xffffffffu, x, offset);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = x;
    __syncthreads();
    float total = 0.0f;
    for (int w = 0; w < ROW_THREADS / 32; ++w)
        total += warp_sums[w];
    __syncthreads();
    return total;
}

/* One block a row of 4096 floats: its mean, then its variance about the mean (two passes over the registers, as
 * layer norms do: E[x^2] - mean^2 loses every digit in float for rows of large values), then each element
 * normalized (no affine weights). */
__global__ void __launch_bounds__(ROW_THREADS) layernorm_rows_kernel(const float4 *in, float4 *out)
{
    __shared__ float warp_sums[ROW_THREADS / 32];
    size_t row = (size_t)blockIdx.x * (ROW_FLOATS / 4);
    float4 v[ROW_VECTORS];
    float sum = 0.0f, squares = 0.0f;
#pragma unroll
    for (int k = 0; k < ROW_VECTORS; ++k) {
        v[k] = in[row + threadIdx.x + (size_t)k * ROW_THREADS];
        sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    float mean = block_sum(sum, warp_sums) / ROW_FLOATS;
#pragma unroll
    for (int k = 0; k < ROW_VECTORS; ++k) {
        float4 d = make_float4(v[k].x - mean, v[k].y - mean, v[k].z - mean, v[k].w - mean);
        squares += (d.x * d.x + d.y * d.y) + (d.z * d.z + d.w * d.w);
    }
    float rstd = rsqrtf(block_sum(squares, warp_sums) / ROW_FLOATS + 1e-5f);
#pragma unroll
    for (int k = 0; k < ROW_VECTORS; ++k)
        out[row + threadIdx.x + (size_t)k * ROW_THREADS] = make_float4(
            (v[k].x - mean) * rstd, (v[k].y - mean) * rstd, (v[k].z - mean) * rstd, (v[k].w - mean) * rstd);
}

extern "C" const char *pathology_modulo_reduction(const struct pathology_buffers *b, cudaStream_t stream)
{
    modulo_reduction_kernel<<<REDUCE_BLOCKS, REDUCE_THREADS, 0, stream>>>(b->src, b->dst);
    return launch_status();
}

extern "C" const char *pathology_sequential_reduction(const struct pathology_buffers *b, cudaStream_t stream)
{
    sequential_reduction_kernel<<<REDUCE_BLOCKS, REDUCE_THREADS, 0, stream>>>(b->src, b->dst);
    return launch_status();
}

extern "C" const char *pathology_one_element_fill(const struct pathology_buffers *b, cudaStream_t stream)
{
    one_element_fill_kernel<<<1, FILL_THREADS, 0, stream>>>(b->dst, 1.0f, 1);
    return launch_status();
}

extern "C" const char *pathology_vector_tail(const struct pathology_buffers *b, cudaStream_t stream)
{
    int sms = 0;
    const char *why = pathology_sm_count(&sms);
    if (why != NULL)
        return why;
    int blocks = TAIL_BLOCKS_PER_SM * sms * TAIL_WAVES_PERCENT / 100;
    static_assert(TAIL_BLOCKS_PER_SM * TAIL_THREADS * TAIL_VECTORS * 4 == 8 * 256 * 16, "PATHOLOGY_TAIL_FLOATS");
    if (PATHOLOGY_TAIL_FLOATS(sms) > PATHOLOGY_BUFFER_FLOATS)
        return "vector_tail: more SMs than its buffers hold 5.17 waves of blocks for";
    vector_tail_kernel<<<blocks, TAIL_THREADS, 0, stream>>>((const float4 *)b->src, (float4 *)b->dst);
    return launch_status();
}

extern "C" const char *pathology_layernorm_rows(const struct pathology_buffers *b, cudaStream_t stream)
{
    layernorm_rows_kernel<<<ROWS, ROW_THREADS, 0, stream>>>((const float4 *)b->src, (float4 *)b->dst);
    return launch_status();
}

/* M is src's first width^2 bf16 (its floats read as pairs of bf16), N the next, P dst's first: the values are
 * whatever the floats' bits make, which the tensor cores take at the same rate. */
extern "C" const char *pathology_cublas_bf16_gemm(const struct pathology_buffers *b, cudaStream_t stream)
{
    const size_t matrix_floats = (size_t)PATHOLOGY_GEMM_WIDTH * PATHOLOGY_GEMM_WIDTH / 2;
    static_assert(2 * matrix_floats <= PATHOLOGY_BUFFER_FLOATS, "src holds M and N");
    if (cublasSetStream(b->blas, stream) != CUBLAS_STATUS_SUCCESS)
        return "cublasSetStream failed";
    return truth_cublas_gemm(b->blas, TRUTH_BF16, PATHOLOGY_GEMM_WIDTH, PATHOLOGY_GEMM_WIDTH, PATHOLOGY_GEMM_WIDTH,
                             b->src, b->src + matrix_floats, b->dst);
}
