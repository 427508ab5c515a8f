/*
 * halfwarp_lanes: order a warp's lanes for the shared-memory pipe. In large_tiles a warp's 32
 * lanes form a 4 x 8 grid of thread tiles (4 along m, 8 along n), numbered along the rows:
 * lane = 8 ty + tx. memscope's instrumented counters show 2.67 wavefronts per LDS.128 for it
 * (cuBLAS: 1.99): the loads of A, where each group of 8 lanes asks for one 16-byte chunk, take
 * 2; those of B, where each group of 8 lanes asks for 8 chunks, take 4 (warptiled, with the same
 * lane grid and 2 loads of each per k, shows 3.0: a + b = 6 and 4a + 2b = 16). The idea tried
 * here: number the lanes down the columns instead, lane = 4 tx + ty, so that every half-warp is
 * a 4 x 4 block of lanes asking for 4 chunks of A and 4 of B, predicted to take 2 wavefronts
 * each. Nothing else changes: the same tiles, FFMA and LDS instructions and global accesses (a
 * warp still stores 128-byte runs of four rows).
 *
 * Counters that should have moved against large_tiles:
 *   shared load wavefronts per instruction  2.67 -> 2 (predicted)
 * Measured (H100 80GB HBM3, one memscope run of all rungs at 6d95f3a built with the LT_* values
 * that are now the defaults; counters at W = 2048 from memscope's metric passes):
 *   shared load wavefronts 33.6 M -> 41.9 M, 2.67 -> 3.33 per LDS.128: the prediction was
 *   wrong. A quarter-warp (8 lanes) now asks for 4 chunks of A instead of 1 and for 2 of B
 *   instead of 8, and the pipe evidently does not serve a half-warp's 4 distinct chunks in one
 *   wavefront; the totals alone do not say how the 20 wavefronts per 6 loads split.
 *   Time: W = 4096: 2.972 -> 2.956 ms (46.5 TFLOP/s, 89.9 % of cuBLAS); W = 8192: 90.2 -> 90.7 %;
 *   W = 2048: 88.3 -> 88.2 %. In the sweep (reports/tuning-h100.csv) it was faster than
 *   large_tiles at 4096 at each BK = 32 point (by 0.4 to 0.6 %) and 0.1 to 0.5 % slower at
 *   2048; at BK = 16 faster at both (by 1.1 to 1.3 %), at BK = 8 slower at both (0.2 %). So the
 *   time moved a little in spite of more wavefronts: the shared pipe is not what limits
 *   large_tiles. Why the time moved was not measured (no stall reasons collected). The rung is
 *   kept because it is the fastest at 4096 and 8192, with this record that its counter went the
 *   other way.
 *
 * Tiles: large_tiles' (LT_* in kernels/ladder/ladder_tiles.h), COL_LANES = true.
 * Bounds: as large_tiles.
 */
#include "ladder_gemm.cuh"

LADDER_PIPELINED_GEMM(matmul_halfwarp_lanes, LT_BM, LT_BN, LT_BK, LT_WM, LT_WN, LT_TM, LT_TN, LT_STAGES, LT_GROUP, true)
