/*
 * What the rungs of the bf16 tensor-core ladder share (kernels/tensor_ladder/): the refusal of shapes a rung cannot
 * take, mma.sync.m16n8k16 and ldmatrix in inline PTX, the epilogue that rounds a warp's FP32 accumulators to bf16,
 * and the block-tiled mma.sync kernel of the ldmatrix rungs, whose shared-memory layout is each rung's idea.
 *
 * Matrices are row-major, bf16 ("A" is M, rows x inner; "B" is N, inner x cols; P rows x cols); accumulation is
 * FP32.
 *
 * Fragments of mma.sync.m16n8k16 (PTX ISA, "Matrix Fragments for mma.m16n8k16"), g = lane / 4, q = lane % 4:
 *   A (16 x 16, row-major): a0a1 (g, 2q..2q+1), a2a3 (g+8, 2q..), a4a5 (g, 2q+8..), a6a7 (g+8, 2q+8..)
 *   B (16 x 8, "col"):      b0b1 (k 2q..2q+1, n g), b2b3 (k 2q+8.., n g)
 *   C (16 x 8, FP32):       c0c1 (g, 2q..2q+1), c2c3 (g+8, 2q..2q+1)
 */
#ifndef MEMSCOPE_TENSOR_COMMON_CUH
#define MEMSCOPE_TENSOR_COMMON_CUH

#include <stdint.h>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "tensor_tiles.h"
#include "../launch_status.cuh"
#include "../matmul.h"

/* 16-byte loads, cp.async and TMA need every row of M, N and P to start 16-byte aligned: 8 bf16. */
#define TENSOR_REFUSED_ALIGNMENT                                                                                   \
    MATMUL_REFUSED "rows must be 16-byte aligned (inner and cols multiples of 8 bf16)"
#define TENSOR_SHAPE_MISMATCH "launch shape does not match the kernel's tile parameters (kernels/tensor_ladder/tensor_tiles.h)"

static inline bool tensor_rows_aligned(const struct matmul_operands *o)
{
    return o->shape.inner % 8 == 0 && o->shape.cols % 8 == 0 &&
           ((uintptr_t)o->m | (uintptr_t)o->n | (uintptr_t)o->p) % 16 == 0;
}

static inline bool tensor_shape_matches(dim3 grid, dim3 block, struct matmul_shape shape, int bm, int bn,
                                        int threads)
{
    return block.x == (unsigned)threads && block.y == 1 && block.z == 1 &&
           grid.x == (unsigned)((shape.cols + bn - 1) / bn) && grid.y == (unsigned)((shape.rows + bm - 1) / bm) &&
           grid.z == 1;
}

/* d += a b on one m16n8k16 tile: one HMMA.16816.F32.BF16 in SASS. */
__device__ __forceinline__ void mma_16816(float d[4], const uint32_t a[4], const uint32_t b[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* Four 8 x 8 bf16 matrices from shared memory, lane l giving the address of row l % 8 of matrix l / 8 (one
 * LDSM.16.M88.4 in SASS); .trans hands each thread a column pair instead of a row pair. */
__device__ __forceinline__ void ldmatrix_x4(uint32_t r[4], const __nv_bfloat16 *row)
{
    uint32_t s = (uint32_t)__cvta_generic_to_shared(row);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t r[4], const __nv_bfloat16 *row)
{
    uint32_t s = (uint32_t)__cvta_generic_to_shared(row);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}

/* One accumulator tile's row pair (row, col..col+1), rounded to bf16; P's cols are a multiple of 8 and col even,
 * so col < cols means col + 1 < cols too. */
__device__ __forceinline__ void store_bf16_pair(__nv_bfloat16 *P, struct matmul_shape s, int row, int col, float x,
                                                float y)
{
    if (row < s.rows && col < s.cols)
        *(__nv_bfloat162 *)&P[(size_t)row * s.cols + col] = __floats2bfloat162_rn(x, y);
}

/*
 * The block-tiled mma.sync kernel of ldmatrix, ldmatrix_padded and ldmatrix_swizzled (and the fragment loop
 * cp_async reuses). A block of 8 warps (2 along m, 4 along n) computes a 128 x 128 tile of P, each warp 64 x 32:
 * per k-step of 16, 4 A fragments (ldmatrix.x4) and 2 x 2 B fragments (ldmatrix.x4.trans), 16 mma.sync.
 * LAYOUT says where element (r, c) of a shared tile lies (c a multiple of 8 for a 16-byte chunk):
 *   LAYOUT::template pitch<COLS>()      elements a tile row of COLS occupies
 *   LAYOUT::template at<COLS>(r, c)      the element's offset in the tile
 */
template <class LAYOUT> struct tile_layout {
    static const int A_ELEMS = TS_BM * LAYOUT::template pitch<TS_BK>();
    static const int B_ELEMS = TS_BK * LAYOUT::template pitch<TS_BN>();
};

/* ldmatrix_swizzled's idea, also cp_async's layout: the 16-byte chunk c / 8 of tile row r is stored at chunk
 * (c / 8) ^ (r % 8), its low three bits flipped by the row, so the 8 rows of an 8 x 8 matrix lie in 8 bank groups. */
struct swizzled_layout {
    template <int COLS> __device__ __host__ static constexpr int pitch() { return COLS; }
    template <int COLS> __device__ static int at(int r, int c)
    {
        return r * COLS + (((c >> 3) ^ (r & 7)) << 3) + (c & 7);
    }
};

/* A warp's fragments of one k-step (16 of k) from the shared tiles, and its 16 mma.sync. */
template <class LAYOUT>
__device__ __forceinline__ void warp_tile_mma(const __nv_bfloat16 *As, const __nv_bfloat16 *Bs, int kk, int wm,
                                              int wn, int lane, float acc[4][4][4])
{
    uint32_t a[4][4], b[4][2];
    /* A: lanes 0-7 rows 0-7 at k 0, 8-15 rows 8-15 at k 0, 16-23 rows 0-7 at k 8, 24-31 rows 8-15 at k 8 */
    const int a_row = (lane & 15), a_col = kk + ((lane >> 4) << 3);
#pragma unroll
    for (int mi = 0; mi < 4; ++mi)
        ldmatrix_x4(a[mi], &As[LAYOUT::template at<TS_BK>(wm * 64 + mi * 16 + a_row, a_col)]);
    /* B: lanes 0-7 k 0-7 at n 0, 8-15 k 8-15 at n 0, 16-23 k 0-7 at n 8, 24-31 k 8-15 at n 8, transposed */
    const int b_row = kk + (lane & 15), b_col = (lane >> 4) << 3;
#pragma unroll
    for (int nj = 0; nj < 2; ++nj) {
        uint32_t r[4];
        ldmatrix_x4_trans(r, &Bs[LAYOUT::template at<TS_BN>(b_row, wn * 32 + nj * 16 + b_col)]);
        b[2 * nj][0] = r[0], b[2 * nj][1] = r[1], b[2 * nj + 1][0] = r[2], b[2 * nj + 1][1] = r[3];
    }
#pragma unroll
    for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni)
            mma_16816(acc[mi][ni], a[mi], b[ni]);
}

/* A warp's 64 x 32 outputs to P. */
__device__ __forceinline__ void store_warp_tile(__nv_bfloat16 *P, struct matmul_shape s, int row0, int col0,
                                                int lane, const float acc[4][4][4])
{
    const int g = lane >> 2, q = lane & 3;
#pragma unroll
    for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
            const int row = row0 + mi * 16 + g, col = col0 + ni * 8 + 2 * q;
            store_bf16_pair(P, s, row, col, acc[mi][ni][0], acc[mi][ni][1]);
            store_bf16_pair(P, s, row + 8, col, acc[mi][ni][2], acc[mi][ni][3]);
        }
}

/* The 16-byte chunk `chunk` of a ROWS x COLS tile whose top-left element of the g_rows x g_cols matrix is
 * (row0, col0): its row and column in the tile, and whether it lies inside the matrix (whole or not at all:
 * g_cols % 8 == 0). */
template <int COLS>
__device__ __forceinline__ bool chunk_of(int chunk, int row0, int col0, int g_rows, int g_cols, int &r, int &c)
{
    r = chunk / (COLS / 8), c = (chunk % (COLS / 8)) * 8;
    return row0 + r < g_rows && col0 + c < g_cols;
}

/* Global -> registers -> shared: each thread's 16-byte chunks of a ROWS x COLS tile of the g_rows x g_cols matrix
 * G, zeros past the edge. */
template <class LAYOUT, int ROWS, int COLS>
__device__ __forceinline__ void load_tile(const __nv_bfloat16 *G, int g_rows, int g_cols, int row0, int col0,
                                          __nv_bfloat16 *S, int tid)
{
#pragma unroll
    for (int i = 0; i < ROWS * COLS / 8 / TS_THREADS; ++i) {
        int r, c;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (chunk_of<COLS>(i * TS_THREADS + tid, row0, col0, g_rows, g_cols, r, c))
            v = *(const uint4 *)&G[(size_t)(row0 + r) * g_cols + col0 + c];
        *(uint4 *)&S[LAYOUT::template at<COLS>(r, c)] = v;
    }
}

template <class LAYOUT>
__global__ void __launch_bounds__(TS_THREADS)
    ldmatrix_gemm_kernel(const __nv_bfloat16 *__restrict__ M, const __nv_bfloat16 *__restrict__ N,
                         __nv_bfloat16 *__restrict__ P, struct matmul_shape s)
{
    __shared__ __align__(128) __nv_bfloat16 As[tile_layout<LAYOUT>::A_ELEMS];
    __shared__ __align__(128) __nv_bfloat16 Bs[tile_layout<LAYOUT>::B_ELEMS];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wm = warp >> 2, wn = warp & 3;
    const int row0 = blockIdx.y * TS_BM, col0 = blockIdx.x * TS_BN;
    float acc[4][4][4] = {};
    for (int k0 = 0; k0 < s.inner; k0 += TS_BK) {
        load_tile<LAYOUT, TS_BM, TS_BK>(M, s.rows, s.inner, row0, k0, As, tid);
        load_tile<LAYOUT, TS_BK, TS_BN>(N, s.inner, s.cols, k0, col0, Bs, tid);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TS_BK; kk += 16)
            warp_tile_mma<LAYOUT>(As, Bs, kk, wm, wn, lane, acc);
        __syncthreads();
    }
    store_warp_tile(P, s, row0 + wm * 64, col0 + wn * 32, lane, acc);
}

template <class LAYOUT> static const char *launch_ldmatrix_gemm(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    if (!tensor_shape_matches(grid, block, o->shape, TS_BM, TS_BN, TS_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    if (!tensor_rows_aligned(o))
        return TENSOR_REFUSED_ALIGNMENT;
    ldmatrix_gemm_kernel<LAYOUT><<<grid, block, 0, o->stream>>>((const __nv_bfloat16 *)o->m,
                                                                (const __nv_bfloat16 *)o->n, (__nv_bfloat16 *)o->p,
                                                                o->shape);
    return launch_status();
}

/* A rung of the three: its launcher and kernel accessor over its layout. */
#define TENSOR_LDMATRIX_GEMM(name, LAYOUT)                                                                        \
    extern "C" const char *name(const struct matmul_operands *o, dim3 grid, dim3 block)                          \
    {                                                                                                            \
        return launch_ldmatrix_gemm<LAYOUT>(o, grid, block);                                                     \
    }                                                                                                            \
    MATMUL_KERNEL(name##_kernel, ldmatrix_gemm_kernel<LAYOUT>, 0)

#endif
