/*
 * icache_fit: keep the inner loop inside the instruction cache. halfwarp_lanes unrolls the 32
 * steps of k of a k-tile into straight-line code: 4,096 FFMA and 745 other instructions, a loop
 * body of 77 KB of SASS that the 8 warps of an SM run at different points. Its warp stall
 * reasons (memscope's stalls group) put a share of the samples on no_instructions, a warp waiting
 * for its next instruction to be fetched, larger than cuBLAS's (docs/ladder.md). The idea: unroll
 * 8 steps of k at a time and loop 4 times, so the inner loop is 1,082 instructions, 17 KB: 1,024
 * FFMA and 58 others, where the unrolled tile had 745 others per 4,096 FFMA.
 *
 * Counters that should move against halfwarp_lanes:
 *   stall samples on no_instructions   down
 *   issue slots used, FMA pipe busy    up
 *   everything the tiles decide (shared wavefronts, global sectors, registers, occupancy): unchanged
 * What these counters and the time did on an H100, with the run each figure came from:
 * docs/ladder.md; at W = 1024 the rung stays slow, as large_tiles (32 blocks for 132 SMs).
 * In the sweep over the steps unrolled (scripts/tune-ladder's if_* points, reports/tuning-h100.csv;
 * figures in docs/ladder.md), why 16 steps lose at 4096, and 4 or 2 everywhere, was not measured;
 * a likely cause for the short bodies is fewer FFMAs between the loop's ends to hide the next
 * step's shared loads behind.
 * What to look at next: issue slots used against cuBLAS's, the samples on dispatch_stall against
 * cuBLAS's, and short_scoreboard (shared-load latency).
 *
 * Tiles: large_tiles' (LT_* in kernels/ladder/ladder_tiles.h); IF_K_UNROLL = 8 steps of k, the
 * best point of the sweep at both widths (the 3-stage point ties at 4096 and loses at 2048).
 * Bounds: as large_tiles; the edge path's k-tiles of 16 also loop over 8 steps.
 */
#include "ladder_gemm.cuh"

LADDER_PIPELINED_GEMM(matmul_icache_fit, LT_BM, LT_BN, LT_BK, LT_WM, LT_WN, LT_TM, LT_TN, LT_STAGES, LT_GROUP, true,
                      IF_K_UNROLL)
