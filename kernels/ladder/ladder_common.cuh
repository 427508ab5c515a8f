/*
 * The pieces the FP32 ladder kernels share (blocktiled_1d ... icache_fit), so that each step
 * changes one idea and nothing is copied between files:
 *
 *   load_tile_scalar   global -> shared, one float per thread and step, zero past the edge
 *   load_tile_vec4     global -> registers -> shared, 16 bytes per thread and step, A optionally
 *                      stored transposed; a scalar path where rows are not 16-byte aligned
 *   cp_async_tile      global -> shared with cp.async (no registers), for the pipelined kernels
 *   thread_tile_origin where a thread's register tile lies in the block tile: contiguous, or
 *                      spread over its warp's sub-tile (warp tiling)
 *   mma_tile           one shared tile's worth of FFMA on a register tile, fed by 16-byte loads
 *                      (mma_tile_between: with a call between its steps)
 *   store_tile         the epilogue: a thread's register tile to P, every store guarded
 *   block_tile_coords  which tile of P a block computes (plain, or rasterized in bands)
 *   ladder_refusal, rows_are_16b_aligned: the launchers' checks
 *
 * Matrices are row-major, width x width; "A" is M (rows of P), "B" is N (columns of P).
 */
#ifndef MEMSCOPE_LADDER_COMMON_CUH
#define MEMSCOPE_LADDER_COMMON_CUH

#include <stdint.h>

#include <cuda_runtime.h>

#include "ladder_tiles.h"
#include "../matmul.h"

/* Element (row, col), or 0 outside the matrix. */
__device__ __forceinline__ float load_or_zero(const float *src, int width, int row, int col)
{
    return (row < width && col < width) ? src[row * width + col] : 0.0f;
}

/*
 * Copy the ROWS x COLS tile of src whose top-left element is (row0, col0) into dst (leading
 * dimension ld), zero past the edge: THREADS threads, one float each per step, consecutive
 * threads along a row (coalesced); in the last step some threads may have nothing to copy. TRANSPOSE stores element (r, c) at dst[c * ld + r].
 */
template <int ROWS, int COLS, int THREADS, bool TRANSPOSE>
__device__ __forceinline__ void load_tile_scalar(const float *src, int width, int row0, int col0, float *dst,
                                                 int ld, int tid)
{
#pragma unroll
    for (int s = 0; s < (ROWS * COLS + THREADS - 1) / THREADS; ++s) {
        int i = tid + s * THREADS;
        if (ROWS * COLS % THREADS != 0 && i >= ROWS * COLS)
            break;
        int r = i / COLS, c = i % COLS;
        float v = load_or_zero(src, width, row0 + r, col0 + c);
        if (TRANSPOSE)
            dst[c * ld + r] = v;
        else
            dst[r * ld + c] = v;
    }
}

/*
 * Which group of four floats (row r, first column c) of a ROWS x COLS tile the q-th 16-byte slot
 * covers. Untransposed: row-major. TRANSPOSE (the A tile, stored As[k][m]): a warp's 32 slots
 * cover 16 rows x 2 neighbouring groups (lane % 16 picks the row, lane / 16 the group). Each
 * row's 32 bytes are still read by two lanes of one request, and the 32 four-byte stores the warp
 * makes into As[c + i][r] then fall in 32 different banks once As's rows are padded by 4 floats
 * (bank 4(c + i) + r; the two groups are 16 banks apart); unpadded they pair up (bank r).
 */
template <int ROWS, int COLS, bool TRANSPOSE>
__device__ __forceinline__ void quad_coords(int q, int &r, int &c)
{
    const int QPR = COLS / 4; /* groups per row */
    if (TRANSPOSE && QPR % 2 == 0 && ROWS % 16 == 0) {
        int chunk = q / 32, lane = q % 32;
        r = chunk / (QPR / 2) * 16 + lane % 16;
        c = (chunk % (QPR / 2) * 2 + lane / 16) * 4;
    } else {
        r = q / QPR;
        c = q % QPR * 4;
    }
}

/*
 * The same with four consecutive floats of a row per thread and step. VEC (the launcher's choice:
 * width % 4 == 0 and 16-byte aligned buffers) reads them as one 128-bit load; since width and the
 * column are then multiples of 4, a group of four is wholly inside or wholly outside the matrix.
 * Without VEC rows are not 16-byte aligned and the four are read one by one, each guarded.
 * TRANSPOSE writes the four to four rows of dst (four 32-bit stores); otherwise one 128-bit store.
 */
template <int ROWS, int COLS, int THREADS, bool TRANSPOSE, bool VEC>
__device__ __forceinline__ void load_tile_vec4(const float *src, int width, int row0, int col0, float *dst, int ld,
                                               int tid)
{
    const int QUADS = ROWS * COLS / 4;
    static_assert(COLS % 4 == 0, "tile rows must split into float4s");
#pragma unroll
    for (int s = 0; s < (QUADS + THREADS - 1) / THREADS; ++s) {
        int q = tid + s * THREADS;
        if (QUADS % THREADS != 0 && q >= QUADS)
            break;
        int r, c;
        quad_coords<ROWS, COLS, TRANSPOSE>(q, r, c);
        int gr = row0 + r, gc = col0 + c;
        float4 v;
        if (VEC) {
            v = (gr < width && gc < width) ? *reinterpret_cast<const float4 *>(&src[gr * width + gc])
                                           : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        } else {
            v.x = load_or_zero(src, width, gr, gc);
            v.y = load_or_zero(src, width, gr, gc + 1);
            v.z = load_or_zero(src, width, gr, gc + 2);
            v.w = load_or_zero(src, width, gr, gc + 3);
        }
        if (TRANSPOSE) {
            dst[(c + 0) * ld + r] = v.x;
            dst[(c + 1) * ld + r] = v.y;
            dst[(c + 2) * ld + r] = v.z;
            dst[(c + 3) * ld + r] = v.w;
        } else {
            *reinterpret_cast<float4 *>(&dst[r * ld + c]) = v;
        }
    }
}

/* cp.async: copy global -> shared without passing through registers; src_bytes < size zero-fills the rest. */
__device__ __forceinline__ void cp_async4(float *dst, const float *src, int src_bytes)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
}

__device__ __forceinline__ void cp_async16(float *dst, const float *src, int src_bytes)
{
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(src_bytes) : "memory");
}

__device__ __forceinline__ void cp_async_commit(void)
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

/* Wait until at most N of this thread's committed groups are still in flight. */
template <int N>
__device__ __forceinline__ void cp_async_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/*
 * Issue the cp.async copies of one ROWS x COLS tile (top-left at row0, col0), four floats per
 * thread and step, laid out as load_tile_vec4 does. Edges are handled without a guard per copy:
 *  - along m (A's rows) or n (B's columns) the index is clamped into the matrix: the copy reads a
 *    real, finite element that only feeds outputs the epilogue never stores;
 *  - along k (A's columns when K_IS_COL, else B's rows), CHECK_K (only the last k-tile, when
 *    width % BK != 0) zero-fills what lies past the edge (src_bytes = 0, source pointer kept inside).
 * The address of a group is split into a part that is the same for every k-tile (hoisted out of
 * the k loop by the compiler) and the k offset, so each k-tile costs one 64-bit add per group and
 * the four 4-byte copies of a group share one address register (immediate offsets).
 * VEC copies 16 bytes at once (only untransposed, aligned rows); otherwise four 4-byte copies.
 */
template <int ROWS, int COLS, int THREADS, bool TRANSPOSE, bool VEC, bool K_IS_COL, bool CHECK_K>
__device__ __forceinline__ void cp_async_tile(const float *src, int width, int row0, int col0, float *dst, int ld,
                                              int tid)
{
    const int QUADS = ROWS * COLS / 4;
    static_assert(COLS % 4 == 0, "tile rows must split into float4s");
#pragma unroll
    for (int s = 0; s < (QUADS + THREADS - 1) / THREADS; ++s) {
        int q = tid + s * THREADS;
        if (QUADS % THREADS != 0 && q >= QUADS)
            break;
        int r, c;
        quad_coords<ROWS, COLS, TRANSPOSE>(q, r, c);
        const float *p; /* the group's first float (its column unclamped for the 4-byte B path) */
        int kc;         /* its coordinate along k */
        if (K_IS_COL) {
            p = src + (size_t)min(row0 + r, width - 1) * width + c + col0;
            kc = col0 + c;
        } else {
            p = src + (size_t)r * width + (VEC ? min(col0 + c, width - 4) : col0 + c) + (size_t)row0 * width;
            kc = row0 + r;
        }
        if (VEC && !TRANSPOSE) {
            bool ok = !CHECK_K || kc < width;
            cp_async16(&dst[r * ld + c], ok ? p : src, ok ? 16 : 0);
        } else {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                bool ok = !CHECK_K || (K_IS_COL ? kc + i : kc) < width;
                const float *pi = p + i;
                if (!K_IS_COL && !VEC) /* 4-byte B path: clamp each column */
                    pi = p + min(col0 + c + i, width - 1) - (col0 + c);
                float *d = TRANSPOSE ? &dst[(c + i) * ld + r] : &dst[r * ld + c + i];
                cp_async4(d, ok ? pi : src, ok ? 4 : 0);
            }
        }
    }
}

/*
 * Where a thread's TM x TN register tile starts in the block tile (r0, c0). Its rows come in
 * groups of 4 spaced a_step apart, its columns in groups of 4 spaced b_step apart (see
 * thread_tile_steps). Contiguous: threads tile the block row-major, each owning a solid TM x TN
 * patch (steps of 4). WARP_TILED: warps tile the block in WM x WN sub-tiles; inside one the 32
 * lanes form a (WM/TM) x (WN/TN) grid, and a lane's 4x4 groups repeat every (lanes along that
 * dimension) x 4 rows or columns, so a warp's 16-byte shared loads read one contiguous run.
 * COL_LANES orders the lanes down the grid's columns (lane = tx * (WM/TM) + ty) instead of along
 * its rows (lane = ty * (WN/TN) + tx): with a 4 x 8 grid each half-warp is then a 4 x 4 block of
 * lanes, reading 4 distinct 16-byte chunks of A and 4 of B per load instead of 2 and 8 (see
 * halfwarp_lanes).
 */
template <int BN, int WM, int WN, int TM, int TN, bool WARP_TILED, bool COL_LANES = false>
__device__ __forceinline__ void thread_tile_origin(int tid, int &r0, int &c0)
{
    if constexpr (WARP_TILED) {
        static_assert((WM / TM) * (WN / TN) == 32, "a warp tile must hold exactly 32 thread tiles");
        int warp = tid / 32, lane = tid % 32;
        int ty = COL_LANES ? lane % (WM / TM) : lane / (WN / TN);
        int tx = COL_LANES ? lane / (WM / TM) : lane % (WN / TN);
        r0 = warp / (BN / WN) * WM + ty * 4;
        c0 = warp % (BN / WN) * WN + tx * 4;
    } else {
        r0 = tid / (BN / TN) * TM;
        c0 = tid % (BN / TN) * TN;
    }
}

template <int WM, int WN, int TM, int TN, bool WARP_TILED>
struct thread_tile_steps {
    static const int a = WARP_TILED ? WM / TM * 4 : 4;
    static const int b = WARP_TILED ? WN / TN * 4 : 4;
};

/*
 * One shared tile's worth of work on a thread's register tile: for each of the BK steps of k,
 * TM values of A (from As[k][...], A stored transposed) and TN of B (Bs[k][...]) come in as
 * 16-byte loads, then TM * TN FFMAs. As and Bs point at the thread's first group.
 * K_UNROLL steps of k are unrolled into straight-line code and the loop runs BK / K_UNROLL times
 * (K_UNROLL = BK: no loop); a shorter body trades a few loop instructions for a smaller footprint
 * in the instruction cache (see icache_fit).
 * mma_tile_between also calls between(i) in the i-th run of K_UNROLL steps, just before its step
 * AT (spread_copies issues a share of the next k-tile's copies there).
 */
template <int BK, int LDA, int LDB, int TM, int TN, int A_STEP, int B_STEP, int K_UNROLL, int AT, typename Between>
__device__ __forceinline__ void mma_tile_between(const float *As, const float *Bs, float (&acc)[TM][TN],
                                                 Between between)
{
    static_assert(TM % 4 == 0 && TN % 4 == 0, "register tiles come in groups of 4");
    static_assert(K_UNROLL > 0 && BK % K_UNROLL == 0, "the unrolled steps must divide the k-tile");
    static_assert(AT < K_UNROLL, "the call falls inside the unrolled steps");
#pragma unroll 1
    for (int k0 = 0; k0 < BK; k0 += K_UNROLL)
#pragma unroll
    for (int dk = 0; dk < K_UNROLL; ++dk) {
        const int k = k0 + dk;
        if (dk == AT)
            between(k0 / K_UNROLL);
        float a[TM], b[TN];
#pragma unroll
        for (int g = 0; g < TM / 4; ++g) {
            float4 v = *reinterpret_cast<const float4 *>(&As[k * LDA + g * A_STEP]);
            a[4 * g + 0] = v.x, a[4 * g + 1] = v.y, a[4 * g + 2] = v.z, a[4 * g + 3] = v.w;
        }
#pragma unroll
        for (int g = 0; g < TN / 4; ++g) {
            float4 v = *reinterpret_cast<const float4 *>(&Bs[k * LDB + g * B_STEP]);
            b[4 * g + 0] = v.x, b[4 * g + 1] = v.y, b[4 * g + 2] = v.z, b[4 * g + 3] = v.w;
        }
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j)
                acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
}

template <int BK, int LDA, int LDB, int TM, int TN, int A_STEP, int B_STEP, int K_UNROLL = BK>
__device__ __forceinline__ void mma_tile(const float *As, const float *Bs, float (&acc)[TM][TN])
{
    mma_tile_between<BK, LDA, LDB, TM, TN, A_STEP, B_STEP, K_UNROLL, -1>(As, Bs, acc, [](int) {});
}

/*
 * The epilogue: write a thread's TM x TN register tile to P. Row i of the tile is P's row
 * r0 + (i / 4) * ROW_STEP + i % 4 (groups of 4 rows, ROW_STEP apart; TM < 4 or a contiguous tile:
 * ROW_STEP = 4); columns likewise with COL_STEP, or one by one when TN is not a multiple of 4.
 * Every row and column is guarded. VEC stores a group of 4 columns as one 128-bit store: with
 * width % 4 == 0 the group is wholly inside or outside. ADD adds the tile to P atomically instead
 * (split_k: several blocks' partial sums of one tile).
 */
template <bool ADD>
__device__ __forceinline__ void put4(float *at, float4 v)
{
    if (!ADD) {
        *reinterpret_cast<float4 *>(at) = v;
        return;
    }
#if __CUDA_ARCH__ >= 900
    atomicAdd(reinterpret_cast<float4 *>(at), v); /* one 128-bit reduction */
#else
    atomicAdd(at, v.x); /* before sm_90 (CUDA_ARCH=80 builds): no 128-bit atomics */
    atomicAdd(at + 1, v.y);
    atomicAdd(at + 2, v.z);
    atomicAdd(at + 3, v.w);
#endif
}

template <bool ADD>
__device__ __forceinline__ void put1(float *at, float v)
{
    if (ADD)
        atomicAdd(at, v);
    else
        *at = v;
}

template <int TM, int TN, int ROW_STEP, int COL_STEP, bool VEC, bool ADD = false>
__device__ __forceinline__ void store_tile(float *P, int width, int r0, int c0, const float (&acc)[TM][TN])
{
    const int RG = TM % 4 == 0 ? 4 : 1, CG = TN % 4 == 0 ? 4 : 1;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        int row = r0 + i / RG * ROW_STEP + i % RG;
        if (row >= width)
            continue;
#pragma unroll
        for (int g = 0; g < TN / CG; ++g) {
            int col = c0 + g * COL_STEP;
            if (VEC && CG == 4) {
                if (col < width)
                    put4<ADD>(&P[row * width + col],
                              make_float4(acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]));
            } else {
#pragma unroll
                for (int j = 0; j < CG; ++j)
                    if (col + j < width)
                        put1<ADD>(&P[row * width + col + j], acc[i][CG * g + j]);
            }
        }
    }
}

/*
 * Which BM x BN tile of P this block computes, as (block row, block column). GROUP <= 0: the
 * grid's own order, blockIdx.x along a row of tiles. GROUP > 0 (rasterized): the launch order
 * walks bands of GROUP block rows column by column, so the blocks resident at one time cover a
 * squarer patch of P and share more of the A rows and B columns they read while they are in L2.
 */
template <int GROUP>
__device__ __forceinline__ void block_tile_coords(int &bm, int &bn)
{
    if (GROUP <= 0) {
        bm = blockIdx.y;
        bn = blockIdx.x;
        return;
    }
    const int pid = blockIdx.y * gridDim.x + blockIdx.x;
    const int per_band = GROUP * gridDim.x;
    const int first = pid / per_band * GROUP;
    const int rows = min((int)gridDim.y - first, GROUP);
    const int in_band = pid % per_band;
    bm = first + in_band % rows;
    bn = in_band / rows;
}

/* The registry's launch shape must be the one the kernel was compiled for (see ladder_tiles.h). */
static inline bool shape_matches(dim3 grid, dim3 block, int width, int bm, int bn, int threads)
{
    return block.x == (unsigned)threads && block.y == 1 && block.z == 1 &&
           grid.x == (unsigned)((width + bn - 1) / bn) && grid.y == (unsigned)((width + bm - 1) / bm) && grid.z == 1;
}

#define LADDER_SHAPE_MISMATCH "launch shape does not match the kernel's tile parameters (kernels/ladder/ladder_tiles.h)"

/* Why a ladder kernel cannot take this launch, or NULL: it is written for square products, and its launcher passes
 * it P's rows as the one width. */
static inline const char *ladder_refusal(const struct matmul_operands *o, dim3 grid, dim3 block, int bm, int bn,
                                         int threads)
{
    if (!matmul_is_square(o->shape))
        return MATMUL_REFUSED_NOT_SQUARE;
    return shape_matches(grid, block, o->shape.rows, bm, bn, threads) ? NULL : LADDER_SHAPE_MISMATCH;
}

/* 16-byte global accesses need every row to start 16-byte aligned: inner and cols multiples of 4, aligned buffers. */
static inline bool rows_are_16b_aligned(const struct matmul_operands *o)
{
    return o->shape.cols % 4 == 0 && o->shape.inner % 4 == 0 &&
           ((uintptr_t)o->m | (uintptr_t)o->n | (uintptr_t)o->p) % 16 == 0;
}

#endif
