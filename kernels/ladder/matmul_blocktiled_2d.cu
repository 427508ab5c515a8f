/*
 * blocktiled_2d: 2D register blocking. blocktiled_1d reuses a value of N over 8 outputs but
 * still loads a value of M for every FFMA. Here a thread computes a TM x TN = 8 x 8 patch of P:
 * per step of k it holds 8 values of M and 8 of N in registers and does 64 FFMAs, an outer
 * product, and a 128x128 block tile reuses every global element 128 times.
 *
 * The shared tiles keep their natural layout (As[m][k], Bs[k][n]) and the source reads them one
 * float at a time. The compiler vectorizes those reads itself (the SASS at BK = 8 has 32 LDS.128
 * per k-tile: along k for As, whose loop over k is unrolled, and along n for Bs), so per 16 FFMA
 * there is one 16-byte shared load; but the layout costs conflicts: a warp's 32 threads are
 * 2 rows x 16 columns of thread tiles, so its loads of Bs are 32 bytes apart and those of As
 * 64 words apart.
 *
 * Counters that should move against blocktiled_1d:
 *   shared loads per FFMA        down (to one LDS.128 per 16 FFMA, after the compiler's
 *                                vectorization)
 *   shared wavefronts per load   up (the conflicts above)
 *   global sectors per FFMA      down by half again (block tile 128x128)
 *   registers per thread         up (64 accumulators, 16 operands, the rest the unrolled loads of
 *                                a k-tile); past 128 a thread, only one block of 8 warps fits on
 *                                an SM
 * What these counters and the time did on an H100, with the run each figure came from:
 * docs/ladder.md.
 *
 * Tiles (kernels/ladder/ladder_tiles.h, swept with scripts/tune-ladder, reports/tuning-h100.csv):
 * BM x BN = 128 x 128, TM x TN = 8 x 8, 256 threads, BK = 16. BK is what mattered: 8 -> 16 -> 32
 * each gained in the sweep (fewer barriers and loop overhead per FFMA; figures in docs/ladder.md).
 * BK = 16 is kept rather than 32 because the rungs above inherit this tile and were measured at
 * 16 (the pipelined rungs at BK = 32 would need 2 x 133 KB of shared memory per SM for two blocks
 * of 4 stages); the gain at 32 is this rung's alone and was not re-measured up the ladder.
 *
 * Bounds: zero-filled tiles (load_tile_scalar) and guarded stores (store_tile): any Width >= 1.
 */
#include "ladder_common.cuh"
#include "../launch_status.cuh"

#define BM BT2_BM
#define BN BT2_BN
#define BK BT2_BK
#define TM BT2_TM
#define TN BT2_TN
#define THREADS BT2_THREADS

__global__ void __launch_bounds__(THREADS) blocktiled_2d_kernel(const float *M, const float *N, float *P, int width)
{
    __shared__ float As[BM * BK]; /* As[m][k] */
    __shared__ float Bs[BK * BN]; /* Bs[k][n] */
    const int tid = threadIdx.x;
    const int tr = tid / (BN / TN), tc = tid % (BN / TN); /* this thread's patch: rows tr*TM.., columns tc*TN.. */
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};

    for (int k0 = 0; k0 < width; k0 += BK) {
        load_tile_scalar<BM, BK, THREADS, false>(M, width, row0, k0, As, BK, tid);
        load_tile_scalar<BK, BN, THREADS, false>(N, width, k0, col0, Bs, BN, tid);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = As[(tr * TM + i) * BK + k];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                b[j] = Bs[k * BN + tc * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
    store_tile<TM, TN, 4, 4, false>(P, width, row0 + tr * TM, col0 + tc * TN, acc);
}

extern "C" const char *matmul_blocktiled_2d(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    if (const char *why = ladder_refusal(o, grid, block, BM, BN, THREADS))
        return why;
    blocktiled_2d_kernel<<<grid, block, 0, o->stream>>>((const float *)o->m, (const float *)o->n, (float *)o->p,
                                                         o->shape.rows);
    return launch_status();
}

MATMUL_KERNEL(matmul_blocktiled_2d_kernel, blocktiled_2d_kernel, 0)
