/*
 * icache_fit: keep the inner loop inside the instruction cache. halfwarp_lanes unrolls the 32
 * steps of k of a k-tile into straight-line code: 4,096 FFMA and 745 other instructions, a loop
 * body of 77 KB of SASS that the 8 warps of an SM run at different points. Its warp stall
 * reasons (memscope's stalls group) put 4.3 % of the samples on no_instructions, a warp waiting
 * for its next instruction to be fetched (cuBLAS: 0.9 %). The idea: unroll 8 steps of k at a
 * time and loop 4 times, so the inner loop is 1,082 instructions, 17 KB. The loop costs a
 * counter and a branch per 1,024 FFMA; every shared load keeps its immediate offset.
 *
 * Counters that should move against halfwarp_lanes:
 *   stall samples on no_instructions   down
 *   issue slots used, FMA pipe busy    up
 *   everything the tiles decide (shared wavefronts, global sectors, registers, occupancy): unchanged
 * Measured (H100 80GB HBM3, this session's experiment: halfwarp_lanes built with 32, 16, 8, 4
 * and 2 steps unrolled, each timed twice against cuBLAS; 8 is this rung):
 *   W = 4096: 2.955 -> 2.891 ms (89.8 -> 91.9 % of cuBLAS); W = 2048: 88.2 -> 93.1 %;
 *   W = 8192: 90.7 -> 92.5 %. Stalls at 4096: no_instructions 4.3 -> 0.7 %, wait 4.6 -> 3.0 %;
 *   issue slots 77.1 -> 79.4 %, FMA pipe 72.9 -> 74.6 %; 255 registers, no spills.
 *   16 steps (35 KB) gained at 2048 (90.7 %) but lost at 4096 (89.5 %); 4 and 2 steps lost
 *   everywhere (88.1 and 86.8 % at 4096): with fewer FFMAs between the loop's ends the compiler
 *   has less room to hoist the next step's shared loads above the current step's FFMAs.
 *
 * Tiles: large_tiles' (LT_* in kernels/ladder/ladder_tiles.h); IF_K_UNROLL = 8 steps of k,
 * chosen by the sweep above (scripts/tune-ladder's if_* points).
 * Bounds: as large_tiles; the edge path's k-tiles of 16 also loop over 8 steps.
 */
#include "ladder_gemm.cuh"

LADDER_PIPELINED_GEMM(matmul_icache_fit, LT_BM, LT_BN, LT_BK, LT_WM, LT_WN, LT_TM, LT_TN, LT_STAGES, LT_GROUP, true,
                      IF_K_UNROLL)
