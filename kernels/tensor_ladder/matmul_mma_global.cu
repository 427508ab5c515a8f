/*
 * mma_global: the first step from CUDA cores to tensor cores, and nothing else. Each warp computes a 32 x 32 tile
 * of P with mma.sync.m16n8k16 (bf16 in, FP32 accumulated: one HMMA.16816.F32.BF16 in SASS, 4096 operations),
 * and loads every fragment register straight from global memory: per k-step of 16, 2 A fragments (8 bf16 a lane)
 * and 4 B fragments (4 bf16 a lane), each element a 16-bit load. No shared memory: a block's 4 warps (2 x 2,
 * 64 x 64 of P) read the same rows of M and columns of N separately, and what one warp reads again the L1 serves.
 *
 * Why it is slow, in counters: per k-step a warp issues 32 16-bit global loads (A: 2 fragments x 4 registers x 2
 * elements; B: 4 x 2 x 2) for 8 HMMA, 4 loads an HMMA. An A load's 32 lanes read 2 bytes in each of 8 rows (4 lanes
 * a row, 2 apart): 8 sectors for 64 bytes; a B load's lanes 2 bytes in 8 columns of 4 rows: 4 sectors.
 *   against cublas_bf16 (and every later rung): global load requests per tensor operation far higher, L1 hit rate
 *   high, tensor pipe busy a few %, stalls long-scoreboard (waiting for loads) dominant.
 *   against the FP32 ladder's naive kernel: the same shape of program, 4096 operations an HMMA where FFMA made 64
 *   a warp.
 *
 * Bounds: every load and store guarded, so any shape (odd extents included): loads past the edge read 0.
 */
#include "tensor_common.cuh"

/* Element (r, c) of the g_rows x g_cols matrix G, 0 past its edge. */
__device__ __forceinline__ uint32_t bf16_at(const __nv_bfloat16 *G, int g_rows, int g_cols, int r, int c)
{
    return r < g_rows && c < g_cols ? (uint32_t)__bfloat16_as_ushort(G[(size_t)r * g_cols + c]) : 0u;
}

/* Two elements into one fragment register, the first in the low half. */
__device__ __forceinline__ uint32_t bf16_pair(const __nv_bfloat16 *G, int g_rows, int g_cols, int r0, int c0, int r1,
                                              int c1)
{
    return bf16_at(G, g_rows, g_cols, r0, c0) | (bf16_at(G, g_rows, g_cols, r1, c1) << 16);
}

__device__ __forceinline__ void store_scalar(__nv_bfloat16 *P, struct matmul_shape s, int row, int col, float x)
{
    if (row < s.rows && col < s.cols)
        P[(size_t)row * s.cols + col] = __float2bfloat16_rn(x);
}

__global__ void __launch_bounds__(TG_THREADS)
    mma_global_kernel(const __nv_bfloat16 *__restrict__ M, const __nv_bfloat16 *__restrict__ N,
                      __nv_bfloat16 *__restrict__ P, struct matmul_shape s)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, q = lane & 3;
    const int row0 = blockIdx.y * TG_BM + (warp >> 1) * 32, col0 = blockIdx.x * TG_BN + (warp & 1) * 32;
    float acc[2][4][4] = {};
    for (int k = 0; k < s.inner; k += 16) {
        uint32_t a[2][4], b[4][2];
#pragma unroll
        for (int mi = 0; mi < 2; ++mi) {
            const int r = row0 + mi * 16 + g, c = k + 2 * q;
            a[mi][0] = bf16_pair(M, s.rows, s.inner, r, c, r, c + 1);
            a[mi][1] = bf16_pair(M, s.rows, s.inner, r + 8, c, r + 8, c + 1);
            a[mi][2] = bf16_pair(M, s.rows, s.inner, r, c + 8, r, c + 9);
            a[mi][3] = bf16_pair(M, s.rows, s.inner, r + 8, c + 8, r + 8, c + 9);
        }
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
            const int r = k + 2 * q, c = col0 + ni * 8 + g;
            b[ni][0] = bf16_pair(N, s.inner, s.cols, r, c, r + 1, c);
            b[ni][1] = bf16_pair(N, s.inner, s.cols, r + 8, c, r + 9, c);
        }
#pragma unroll
        for (int mi = 0; mi < 2; ++mi)
#pragma unroll
            for (int ni = 0; ni < 4; ++ni)
                mma_16816(acc[mi][ni], a[mi], b[ni]);
    }
#pragma unroll
    for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                store_scalar(P, s, row0 + mi * 16 + g + (e >> 1) * 8, col0 + ni * 8 + 2 * q + (e & 1),
                             acc[mi][ni][e]);
}

extern "C" const char *matmul_mma_global(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    if (!tensor_shape_matches(grid, block, o->shape, TG_BM, TG_BN, TG_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    mma_global_kernel<<<grid, block, 0, o->stream>>>((const __nv_bfloat16 *)o->m, (const __nv_bfloat16 *)o->n,
                                                     (__nv_bfloat16 *)o->p, o->shape);
    return launch_status();
}

MATMUL_KERNEL(matmul_mma_global_kernel, mma_global_kernel, 0)
