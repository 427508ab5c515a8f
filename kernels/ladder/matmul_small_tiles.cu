/*
 * small_tiles: a block tile small enough to fill the GPU at small widths. From large_tiles on, a
 * block computes a 128 x 256 tile of P, and there are only (W / 128) x (W / 256) of them: on an
 * H100's 132 SMs, W = 1024 makes 32 blocks, so 100 SMs stay idle for the whole kernel, however
 * fast each block is. cuBLAS picks a 64 x 128 tile there. The idea: the same kernel as
 * icache_fit (cp.async pipeline, lanes down the warp's columns, k loop unrolled 8 steps at a
 * time), with 64 x 128 block tiles of 4 warps (128 threads), each warp 32 x 64 and each thread
 * 8 x 8 outputs (warptiled's warp and thread tiles). Blocks on 132 SMs, against icache_fit's:
 *   W = 1024:  128 blocks, 0.97 of a wave (4 SMs idle)       icache_fit:   32 (0.24 of a wave)
 *   W = 2048:  512 blocks, 1.94 waves of 2 blocks per SM      icache_fit:  128 (0.97)
 *   W = 4096: 2048 blocks, 7.8 waves                          icache_fit:  512 (3.9)
 *   W = 8192: 8192 blocks, 31.0 waves                         icache_fit: 2048 (15.5)
 * (two blocks per SM fit: 4 stages of 64x128x32 take 98 KB of shared memory, 196 KB for two.)
 * The price, paid at every width: a block reads 64 + 128 floats per k for 64 x 128 FMAs, half the
 * reuse of 128 x 256 (twice the L2-to-shared traffic per FFMA), and a thread 2 + 2 LDS.128 per k
 * for 64 FFMA instead of 4 + 2 for 128 (a third more shared loads per FFMA). So this rung is meant
 * to win where SMs idle (W = 1024) and to tie or lose against icache_fit from W = 2048 on, where
 * icache_fit already gives nearly every SM a block.
 *
 * Counters that should move against icache_fit:
 *   at W = 1024: SM throughput (sol_sm_pct), issue slots used and FMA pipe busy, all averaged
 *                over the 132 SMs: up, about 4x (128 SMs at work instead of 32)
 *   achieved occupancy                  down to 4 warps per SM at W = 1024 (one block each, as
 *                                       cuBLAS's 64x128 kernel): each warp's 64 independent FFMA
 *                                       per step of k must hide the shared-load latency
 *   shared wavefronts per FFMA          up (a third more LDS.128 per FFMA)
 *   L2-to-SM traffic per FFMA           up, twice (sol_l2_pct against the time)
 *   registers per thread                down (64 accumulators, not 128)
 *   at W >= 4096: issue slots and FMA pipe busy down (more loads per FFMA), the time up
 * What these counters and the time did on an H100, with the run each figure came from:
 * docs/ladder.md.
 *
 * Tiles (ST_* in kernels/ladder/ladder_tiles.h): 64x128x32, warp 32x64, 8x8 per thread, 4 stages,
 * bands of 16 block rows; scripts/tune-ladder's st_* points sweep 64x128, 128x64 and 64x64 tiles
 * with 4x4, 8x4, 16x4 and 8x8 thread tiles, k-tiles of 8 to 32 and 3 or 4 stages (figures in
 * docs/ladder.md).
 * Bounds: as large_tiles (clamped m/n indices, zero-filled last k-tile, 16-byte path only when
 * width % 4 == 0, every store guarded): any Width >= 1; the edge path's k-tiles of 16 also loop
 * over 8 steps.
 */
#include "ladder_gemm.cuh"

LADDER_PIPELINED_GEMM(matmul_small_tiles, ST_BM, ST_BN, ST_BK, ST_WM, ST_WN, ST_TM, ST_TN, ST_STAGES, ST_GROUP, true,
                      IF_K_UNROLL)
