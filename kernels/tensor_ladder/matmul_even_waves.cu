/*
 * even_waves: tma_store's kernel on a grid sized to its rounds of tiles rather than to the SMs (tensor_tiles.h, even_waves_grid).
 * A persistent block walks the tiles b, b + G, b + 2G, ... in the banded order, so the kernel runs in rounds of G
 * tiles. With G = 132 at W = 4096 the 512 tiles of 128 x 256 take 4 rounds whose last is 116 tiles, and from the
 * second round on the tiles in work straddle two bands of 8 tile rows. even_waves launches the fewest blocks that
 * take no more rounds: 128 at W = 2048, 4096 and 8192 (1, 4, 16 rounds, the same as 132 blocks), 132 where 132
 * saves a round. Every round is then whole and is exactly one band (8 tile rows x 16 columns at 4096): the blocks
 * walk in step, each round reading one band's 1024 rows of M and all of N, while 4 SMs idle that the last round of
 * 132 left idle anyway (16 of them).
 *
 * Counters that should move against tma_store: DRAM read bytes and the L2 miss rate down (the rounds' working
 * sets no longer straddle bands), time down at 4096 and 8192 by what the straddling cost; nothing at 1024 and
 * 2048, where every tile is in the first round with either grid. The kernel's own counters (instructions,
 * tensor operations, shared wavefronts) equal tma_store's: it is the same kernel.
 */
#include "tensor_ws.cuh"

TENSOR_WS_GEMM(matmul_even_waves, true, false, true, true)
