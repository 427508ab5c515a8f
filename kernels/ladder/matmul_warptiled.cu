/*
 * warptiled: the warp as a unit of tiling. In vectorized_padded a warp's 32 threads are 2 rows x
 * 16 columns of 8x8 thread tiles, a 16 x 128 strip of the block tile: per step of k the warp reads
 * 16 values of A and 128 of B from shared memory, and its 16-byte loads of B are 32 bytes apart
 * (each covers half of a thread's 8 columns), which costs extra wavefronts. Here each warp owns a
 * WM x WN = 32 x 64 sub-tile (8 warps: 4 along m x 2 along n), its lanes form a 4 x 8 grid, and a
 * lane's 8x8 register tile is split into 2 x 2 groups of 4x4 that repeat every 16 rows and every
 * 32 columns of the warp tile (the warp iterates over 2 x 2 warp sub-tiles of 16 x 32, each lane
 * holding one 4x4 of each). Then per step of k:
 *   - a warp reads 32 values of A and 64 of B (96 instead of 144): more reuse in registers;
 *   - each 16-byte load of the warp reads one contiguous run (A: 4 lanes' worth, broadcast to
 *     the 8 lanes that share them; B: 8 lanes x 16 bytes = 128 bytes).
 * The global loads, the shared layout and the FFMA count are vectorized_padded's.
 *
 * Counters that should move against vectorized_padded:
 *   shared load wavefronts per instruction   down (fewer unique bytes per warp, no stride)
 *   registers, occupancy                     about unchanged (same 8x8 register tile)
 * What these counters and the time did on an H100, with the run each figure came from:
 * docs/ladder.md (which also splits the wavefronts between the loads of A and of B: see
 * halfwarp_lanes).
 *
 * Tiles (kernels/ladder/ladder_tiles.h): BM x BN x BK = 128 x 128 x 16 (blocktiled_2d's), WM x WN = 32 x 64,
 * TM x TN = 8 x 8, 256 threads. 32 x 64 rather than 64 x 32: 8 lanes along n make B's loads one
 * 128-byte run, and A's 4 distinct 16-byte addresses a broadcast.
 *
 * Bounds: as vectorized (16-byte path when width % 4 == 0, scalar edge path otherwise).
 */
#include "ladder_gemm.cuh"

LADDER_STAGED_GEMM(matmul_warptiled, WT_BM, WT_BN, WT_BK, WT_WM, WT_WN, WT_TM, WT_TN, 4, true)
