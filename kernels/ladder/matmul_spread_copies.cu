/*
 * spread_copies: issue the next k-tile's copies among the FFMAs, not in one burst before them.
 * In icache_fit (and split_k, its kernel from W = 2048 on) a thread starts each k-tile with its
 * 24 copies of the next one (16 four-byte cp.async for the transposed A, 8 sixteen-byte for B),
 * each with its address arithmetic, and then 4,096 FFMAs. Its warp stall reasons put about twice
 * cuBLAS's share of the samples on dispatch_stall, and most of its long_scoreboard samples and a
 * part of its wait samples on the copies' lines (docs/ladder.md): with two warps per scheduler, a
 * burst of copies in both leaves the FMA pipe with nothing to issue. The idea: cut the copies
 * into four shares (4 of A, 2 of B) and issue one just before step SC_COPIES_AT of each run of 8
 * unrolled steps, where the FFMAs of the steps around them can be scheduled beside them.
 *
 * The rasterization that the rungs since `rasterized` kept is dropped (SC_GROUP = 0): it never paid
 * on the H100 (rasterized was slower than pipelined), and the registers its block coordinates hold
 * are ones the spread copies need: built with SC_GROUP = 16, ptxas spills whichever step the shares
 * go before, and the rung ran no faster than split_k.
 *
 * Counters that should move against split_k (icache_fit's kernel) at W >= 2048:
 *   issue slots used, FMA pipe busy          up
 *   stall samples on dispatch_stall, wait    down
 *   everything the tiles decide (shared wavefronts, global sectors, registers, occupancy): unchanged
 * At W = 1024 it is split_k with the same change (4 blocks a tile). What they did on an H100:
 * docs/ladder.md.
 *
 * Tiles: split_k's (LT_*, IF_K_UNROLL); SC_COPIES_AT = 5, the best of a sweep over the 8 steps, and
 * SC_GROUP in kernels/ladder/ladder_tiles.h.
 * Bounds: as split_k, any Width >= 1; the shares are taken only on the fast path (a block wholly
 * inside the matrix, rows 16-byte aligned, a whole next k-tile), every other k-tile copies as
 * split_k does.
 */
#include "ladder_gemm.cuh"

LADDER_PIPELINED_GEMM(matmul_spread_copies, LT_BM, LT_BN, LT_BK, LT_WM, LT_WN, LT_TM, LT_TN, LT_STAGES, SC_GROUP, true,
                      IF_K_UNROLL, true, SC_COPIES_AT)
