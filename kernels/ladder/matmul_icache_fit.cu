/*
 * icache_fit: keep the inner loop inside the instruction cache. halfwarp_lanes unrolls the 32
 * steps of k of a k-tile into straight-line code: 4,096 FFMA and 745 other instructions, a loop
 * body of 77 KB of SASS that the 8 warps of an SM run at different points. Its warp stall
 * reasons (memscope's stalls group) put 4.3 % of the samples on no_instructions, a warp waiting
 * for its next instruction to be fetched (cuBLAS: 0.9 %). The idea: unroll 8 steps of k at a
 * time and loop 4 times, so the inner loop is 1,082 instructions, 17 KB: 1,024 FFMA and 58
 * others, where the unrolled tile had 745 others per 4,096 FFMA.
 *
 * Counters that should move against halfwarp_lanes:
 *   stall samples on no_instructions   down
 *   issue slots used, FMA pipe busy    up
 *   everything the tiles decide (shared wavefronts, global sectors, registers, occupancy): unchanged
 * Measured (H100 80GB HBM3, the reference run at af9d50f, --metric-groups all; 8192 from the
 * ladder run at 5fd9aea, reports/ladder-h100-summary.csv):
 *   W = 4096: 2.955 -> 2.892 ms (89.9 -> 91.9 % of cuBLAS); W = 2048: 88.6 -> 93.1 %;
 *   W = 8192: 90.7 -> 92.5 %; W = 1024: 31.4 -> 33.2 % (32 blocks for 132 SMs, as large_tiles).
 *   Stalls at 4096: no_instructions 4.3 -> 0.7 %, wait 4.5 -> 3.1 %; issue slots used
 *   76.7 -> 79.4 %, FMA pipe 72.5 -> 74.6 %; 255 registers (254 before); shared wavefronts,
 *   occupancy and DRAM bytes unchanged.
 * The sweep (scripts/tune-ladder's if_* points, reports/tuning-h100.csv, % of cuBLAS at
 * 2048 / 4096): 2 steps 88.8 / 86.6, 4 steps 90.1 / 88.0, 8 steps 93.2 / 91.3, 16 steps
 * 91.1 / 89.4, 32 steps (halfwarp_lanes) 88.3 / 90.0; 8 steps with 3 stages 92.6 / 91.3, with
 * k-tiles of 16 88.2 / 87.1. Why 16 steps lose at 4096, and 4 or 2 everywhere, was not measured;
 * a likely cause for the short bodies is fewer FFMAs between the loop's ends to hide the next
 * step's shared loads behind.
 * What the counters say next: issue slots 79 % against cuBLAS's 90 %, with dispatch_stall at
 * 9.2 % of the samples (cuBLAS 4.6 %) and short_scoreboard (shared-load latency) at 6.5 %.
 *
 * Tiles: large_tiles' (LT_* in kernels/ladder/ladder_tiles.h); IF_K_UNROLL = 8 steps of k, the
 * best point of the sweep at both widths (the 3-stage point ties at 4096 and loses at 2048).
 * Bounds: as large_tiles; the edge path's k-tiles of 16 also loop over 8 steps.
 */
#include "ladder_gemm.cuh"

LADDER_PIPELINED_GEMM(matmul_icache_fit, LT_BM, LT_BN, LT_BK, LT_WM, LT_WN, LT_TM, LT_TN, LT_STAGES, LT_GROUP, true,
                      IF_K_UNROLL)
