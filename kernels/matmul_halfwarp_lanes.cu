/*
 * halfwarp_lanes: order a warp's lanes for the shared-memory pipe. In large_tiles a warp's 32
 * lanes form a 4 x 8 grid of thread tiles (4 along m, 8 along n), numbered along the rows:
 * lane = 8 ty + tx. Each 16-byte shared load of B is then a half-warp (16 lanes) asking for 8
 * distinct 16-byte chunks, each by two lanes, and each load of A for 2 chunks, each by eight. The
 * H100 serves an LDS.128 half-warp by half-warp; measured at W = 2048 (memscope's instrumented
 * shared wavefronts), large_tiles needs 2.67 wavefronts per LDS.128 on average, cuBLAS 1.99:
 * the loads of A take 2, those of B 4. Numbering the lanes down the columns instead,
 * lane = 4 tx + ty, makes every half-warp a 4 x 4 block of lanes: 4 distinct chunks of A and 4
 * of B per load, 2 wavefronts each. Nothing else changes: the same tiles, the same FFMA and LDS
 * instructions, the same global accesses (a warp still stores 128-byte runs of four rows).
 *
 * Counters that should move against large_tiles:
 *   shared load wavefronts per instruction  2.67 -> 2 (shared_ld_wavefronts_per_inst)
 *   shared wavefronts per FFMA              down by a quarter; L1 data-pipe cycles freed
 *   everything else                         unchanged
 *
 * Tiles: large_tiles' (LT_* in kernels/ladder_tiles.h), COL_LANES = true.
 * Bounds: as large_tiles.
 */
#include "ladder_gemm.cuh"

extern "C" const char *matmul_halfwarp_lanes(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_pipelined_gemm<LT_BM, LT_BN, LT_BK, LT_WM, LT_WN, LT_TM, LT_TN, LT_STAGES, LT_GROUP, true>(o, grid,
                                                                                                           block);
}
