/*
 * large_tiles: a larger register tile. On an H100 an SM has 128 FP32 lanes and issues one warp
 * instruction per clock per scheduler: every shared load, address computation and barrier takes
 * the place of an FFMA. With 8x8 per thread a step of k costs 4 LDS.128 for 64 FFMA; with 16x8 it
 * costs 6 for 128 (FFMA share of the inner loop 94 % -> 96 %), and the per-k-tile overhead (the
 * cp.async copies, the barrier, the loop) is spread over twice the FFMAs. The block tile grows
 * to BM x BN = 128 x 256 so that 8 warps of 64 x 64 (lanes 4 x 8, each 4 x 2 groups of 4x4) cover
 * it: a block reads 128 + 256 floats per k for 128 x 256 x 2 FLOP, 4/3 the arithmetic intensity
 * of a 128x128 tile. The cost: the 128 accumulators alone fill the 128 registers a thread may
 * use for two blocks per SM, so one block (8 warps) per SM, and fewer, larger blocks (W = 4096:
 * 512 tiles on 132 SMs, 3.9 waves; W = 1024: 32 tiles for 132 SMs, so this rung is slow at small
 * W, where pipelined beats it: docs/ladder.md).
 *
 * Counters that should move against rasterized:
 *   shared load instructions per FFMA   down (6 per 128 FFMA instead of 4 per 64)
 *   shared wavefronts per FFMA          down
 *   registers per thread                up (128 accumulators); occupancy down to 8 warps per SM
 *                                       (12.5 % of the 64 an SM holds)
 * What these counters and the time did on an H100, with the run each figure came from:
 * docs/ladder.md.
 *
 * Tiles (kernels/ladder/ladder_tiles.h), the best of scripts/tune-ladder on an H100
 * (reports/tuning-h100.csv): 128x256, warp 64x64, 16x8 per thread, LT_BK = 32, LT_STAGES = 4.
 * Against it: 128x128 with 8x8, BK = 8, BK = 16, BK = 32 with 2 or 3 stages; in an earlier sweep
 * 256x128 and rasterizing in bands of 8 block rows instead of 16 (the same). The figures of
 * every point are in docs/ladder.md. 4 stages of 128x256x32 take 194 KB of shared memory (the
 * launcher raises the limit).
 *
 * Bounds: as pipelined (clamped m/n indices, zero-filled last k-tile, 16-byte path only when
 * width % 4 == 0, every store guarded): any Width >= 1. The scalar edge path runs with k-tiles of
 * 16 (at 32 its extra address registers spilled).
 */
#include "ladder_gemm.cuh"

LADDER_PIPELINED_GEMM(matmul_large_tiles, LT_BM, LT_BN, LT_BK, LT_WM, LT_WN, LT_TM, LT_TN, LT_STAGES, LT_GROUP)
