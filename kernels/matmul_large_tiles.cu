/*
 * large_tiles: a larger register tile. On an H100 an SM has 128 FP32 lanes and issues one warp
 * instruction per clock per scheduler: every shared load, address computation and barrier takes
 * the place of an FFMA. With 8x8 per thread a step of k costs 4 LDS.128 for 64 FFMA; with 16x8 it
 * costs 6 for 128 (FFMA share of the inner loop 94 % -> 96 %), and the per-k-tile overhead (the
 * cp.async copies, the barrier, the loop) is spread over 1024 FFMA instead of 512. The block tile
 * grows to BM x BN = 128 x 256 so that 8 warps of 64 x 64 (lanes 4 x 8, each 4 x 2 groups of 4x4)
 * cover it: a block reads 128 + 256 floats per k for 128 x 256 x 2 FLOP, 1.5x the arithmetic
 * intensity of a 128x128 tile. The cost: ~200 registers per thread, so one block (8 warps) per SM,
 * and fewer, larger blocks (W = 4096: 512 tiles on 132 SMs, 3.9 waves; W = 1024: 32 tiles, a
 * quarter of the SMs, so this variant is slow at small W).
 *
 * Counters that should move against rasterized:
 *   shared load wavefronts per FFMA   down (6 per 128 FFMA instead of 4 per 64)
 *   global sectors per FFMA           down (larger block tile)
 *   registers per thread              up (~200); occupancy down to 8 warps per SM
 *   issue slots used by FFMA          up
 *
 * Tiles (kernels/ladder_tiles.h, the best point of scripts/tune-ladder on an H100,
 * reports/tuning-h100.csv): LT_BM x LT_BN x LT_BK = 128 x 256 x 8, warp 64 x 64, 16 x 8 per
 * thread, LT_STAGES = 3, LT_GROUP = 16.
 *
 * Bounds: as pipelined (clamped m/n indices, zero-filled last k-tile, 16-byte path only when
 * width % 4 == 0, every store guarded): any Width >= 1.
 */
#include "ladder_gemm.cuh"

extern "C" const char *matmul_large_tiles(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_pipelined_gemm<LT_BM, LT_BN, LT_BK, LT_WM, LT_WN, LT_TM, LT_TN, LT_STAGES, LT_GROUP>(o, grid,
                                                                                                     block);
}
