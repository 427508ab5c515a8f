/*
 * split_k: when the tiles of P are too few to fill the GPU, share each tile's k among several
 * blocks. small_tiles filled the 132 SMs at W = 1024 by making the tiles smaller, and paid for it
 * with half the reuse per load. The idea here keeps icache_fit's 128 x 256 tiles (256 threads,
 * 16 x 8 outputs per thread, the same pipeline and 8-step unroll) and gives each tile S blocks
 * instead: block z of a tile sums k-tiles [z * K/S, (z + 1) * K/S) and adds its partial tile to P
 * with 128-bit atomic adds (red.global.add.v4.f32), into a P the launcher zeroed first. S is
 * chosen at launch: the SMs over the tiles of P, at most the k-tiles there are, so
 *   W = 1024:   32 tiles, S = 4: 128 blocks (0.97 of a wave), each over 256 of k
 *   W = 2048:  128 tiles, S = 1: icache_fit's kernel exactly, plain stores, no zeroing
 *   W >= 4096: S = 1 likewise
 * What S > 1 costs: zeroing P (a memset of W^2 floats) and S atomic adds per element of P where
 * one store did; the adds land in the L2, which performs them, so the cost grows with W^2 while
 * the FFMAs grow with W^3: small at W = 1024 (4 M adds against 1,074 M FFMA). The sum of a P
 * element is made in an order that changes from run to run, which the check's tolerance covers.
 *
 * Counters that should move against icache_fit, at W = 1024 only:
 *   SM throughput, issue slots used, FMA pipe busy (averaged over 132 SMs): up, about 4x
 *   global stores: become atomic reductions (RED), which the global store counters do not count;
 *                  L2 throughput up with them
 *   everything inside a block (shared wavefronts per FFMA, registers, occupancy): unchanged
 * and against small_tiles: shared wavefronts and L2-to-SM traffic per FFMA down (the larger tile).
 * What they did on an H100: docs/ladder.md.
 *
 * Tiles: icache_fit's (LT_* and IF_K_UNROLL in kernels/ladder/ladder_tiles.h). Bounds: as
 * large_tiles, any Width >= 1; a block whose share of k is empty adds zeros.
 */
#include "ladder_gemm.cuh"

LADDER_PIPELINED_GEMM(matmul_split_k, LT_BM, LT_BN, LT_BK, LT_WM, LT_WN, LT_TM, LT_TN, LT_STAGES, LT_GROUP, true,
                      IF_K_UNROLL, true)
