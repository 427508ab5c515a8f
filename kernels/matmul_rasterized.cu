/*
 * rasterized: thread-block rasterization for L2 reuse. Blocks are launched in the order of their
 * linear index, blockIdx.x fastest, so the blocks resident at one time (2 per SM here, 264 on an
 * H100) cover a few full rows of block tiles: at W = 4096 with 128x128 tiles, 8 rows x 32 columns.
 * Together they read, per k-tile, 8 block rows of A and all 32 block columns of B. Remapped so that
 * consecutive blocks walk down bands of RS_GROUP = 16 block rows, column by column, the same 264
 * blocks cover about 16 x 16 tiles and read 16 + 16 instead of 8 + 32 slabs of A and B: fewer
 * distinct bytes in flight, so more of what each block reads is already in the L2 because a
 * neighbour asked for it. The kernel is pipelined's; only block_tile_coords<GROUP> changes.
 *
 * Counters that should move against pipelined:
 *   L2 hit rate (lts__t_sector_hit_rate)   up
 *   DRAM bytes read                        down, most at large W (8192: B alone is 256 MB)
 *   time                                   little at W <= 4096: A and B (64 MB each at 4096) mostly
 *                                          fit in the 50 MB L2 already and the kernel is bound by
 *                                          FFMA issue, not by DRAM
 *
 * Tiles: pipelined's (WT_*, PL_STAGES); RS_GROUP = 16 block rows (kernels/ladder_tiles.h), about
 * the square root of the number of resident blocks.
 *
 * Bounds: as pipelined. The remapping is a bijection on the grid for any grid shape (the last
 * band is shorter when the block rows do not divide by RS_GROUP).
 */
#include "ladder_gemm.cuh"

extern "C" const char *matmul_rasterized(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_pipelined_gemm<WT_BM, WT_BN, WT_BK, WT_WM, WT_WN, WT_TM, WT_TN, PL_STAGES, RS_GROUP>(o, grid,
                                                                                                     block);
}
