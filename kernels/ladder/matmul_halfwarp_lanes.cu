/*
 * halfwarp_lanes: order a warp's lanes for the shared-memory pipe. In large_tiles a warp's 32
 * lanes form a 4 x 8 grid of thread tiles (4 along m, 8 along n), numbered along the rows:
 * lane = 8 ty + tx. Each group of 8 lanes asks for one 16-byte chunk of A and for 8 chunks of B,
 * and memscope's instrumented counters show more wavefronts per LDS.128 for it than for cuBLAS.
 * Set beside warptiled's (the same lane grid, with 2 loads of A and 2 of B per k where large_tiles
 * makes 4 and 2), they split between the two: B's loads take more wavefronts than A's
 * (docs/ladder.md). The idea tried here: number the lanes down the columns instead,
 * lane = 4 tx + ty, so that every half-warp is a 4 x 4 block of lanes asking for 4 chunks of A and
 * 4 of B, predicted to take 2 wavefronts each. Nothing else changes: the same tiles, FFMA and LDS
 * instructions and global accesses (a warp still stores 128-byte runs of four rows).
 *
 * Counters that should have moved against large_tiles:
 *   shared load wavefronts per instruction  down to 2 (predicted)
 * What this counter and the time did on an H100, with the run each figure came from:
 * docs/ladder.md. The prediction was wrong: the wavefronts per LDS.128 went up, not down. A
 * quarter-warp (8 lanes) now asks for 4 chunks of A instead of 1 and for 2 of B instead of 8, and
 * the pipe evidently does not serve a half-warp's 4 distinct chunks in one wavefront; the totals
 * alone do not say how the wavefronts split between A and B. The time moved a little in spite of
 * more wavefronts, so the shared pipe is not what limits large_tiles; why it moved was not
 * measured (no stall reasons collected). The rung is kept, with this record that its counter went
 * the other way, because it was the faster of the two at 4096 and 8192 and icache_fit builds on
 * it.
 *
 * Tiles: large_tiles' (LT_* in kernels/ladder/ladder_tiles.h), COL_LANES = true.
 * Bounds: as large_tiles.
 */
#include "ladder_gemm.cuh"

LADDER_PIPELINED_GEMM(matmul_halfwarp_lanes, LT_BM, LT_BN, LT_BK, LT_WM, LT_WN, LT_TM, LT_TN, LT_STAGES, LT_GROUP, true)
