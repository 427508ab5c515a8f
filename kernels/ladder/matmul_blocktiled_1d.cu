/*
 * blocktiled_1d: thread coarsening along one dimension. After tiled_32 each thread still computes
 * one element of P and, per FFMA, reads two floats from shared memory (one of M, one of N): the
 * kernel is bound by shared-memory loads, not by arithmetic. Here a thread computes BT1_TM = 8
 * elements of one column of P. Per step of k it reads one value of N into a register and reuses it
 * for 8 FFMAs, against 8 values of M that the whole warp reads at the same address (a broadcast:
 * a warp's 32 threads lie along one row of the block tile, so they share their rows of M).
 *
 * Counters that should move against tiled_32:
 *   shared loads (instructions) per FFMA  down from 2 to 9/8 (1 of N + 8 broadcasts of M per 8 FFMA)
 *   shared wavefronts per FFMA            down with them
 *   global sectors per FFMA               down by half: a 64x64 block tile reuses each element 64
 *                                         times instead of 32
 *   registers per thread                  up (8 accumulators); occupancy down
 *   DRAM bytes                            unchanged (the operands fit in the L2 at W = 2048)
 * What these counters and the time did on an H100, with the run each figure came from:
 * docs/ladder.md.
 *
 * Tiles (kernels/ladder/ladder_tiles.h): BM x BN = 64 x 64, BK = 8, TM = 8, so 512 threads, each loading
 * one element of the 64x8 M tile and one of the 8x64 N tile per k-tile. These are the public
 * ladder's values for this step; it is a stepping stone and was not tuned further.
 *
 * Bounds: every tile element past the edge is loaded as zero (load_tile_scalar), every store is
 * guarded (store_tile), so any Width >= 1 works.
 */
#include "ladder_common.cuh"
#include "../launch_status.cuh"

#define BM BT1_BM
#define BN BT1_BN
#define BK BT1_BK
#define TM BT1_TM
#define THREADS BT1_THREADS

__global__ void __launch_bounds__(THREADS) blocktiled_1d_kernel(const float *M, const float *N, float *P, int width)
{
    __shared__ float As[BM * BK]; /* As[m][k] */
    __shared__ float Bs[BK * BN]; /* Bs[k][n] */
    const int tid = threadIdx.x;
    const int tc = tid % BN, tr = tid / BN; /* this thread's column, and its group of TM rows */
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][1] = {};

    for (int k0 = 0; k0 < width; k0 += BK) {
        load_tile_scalar<BM, BK, THREADS, false>(M, width, row0, k0, As, BK, tid);
        load_tile_scalar<BK, BN, THREADS, false>(N, width, k0, col0, Bs, BN, tid);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float b = Bs[k * BN + tc];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                acc[i][0] += As[(tr * TM + i) * BK + k] * b;
        }
        __syncthreads();
    }
    store_tile<TM, 1, 4, 1, false>(P, width, row0 + tr * TM, col0 + tc, acc);
}

extern "C" const char *matmul_blocktiled_1d(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    if (const char *why = ladder_refusal(o, grid, block, BM, BN, THREADS))
        return why;
    blocktiled_1d_kernel<<<grid, block, 0, o->stream>>>((const float *)o->m, (const float *)o->n, (float *)o->p,
                                                         o->shape.rows);
    return launch_status();
}

MATMUL_KERNEL(matmul_blocktiled_1d_kernel, blocktiled_1d_kernel, 0)
