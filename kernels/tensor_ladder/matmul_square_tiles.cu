/*
 * square_tiles: fitted_tiles with one more tile to choose from, 192 x 192 (tensor_tiles.h, square_tile), the tile
 * cuBLAS runs at 3072 x 3072. Three consumer warpgroups, as in taller_tiles' 192 x 128, each taking 64 rows of 192
 * columns with one wgmma m64n192k16 a k-step (96 accumulators a thread, in the 152 registers three consumers get):
 * a k-tile is 24 KB of M and three 64-column boxes of N, 48 KB as 128 x 256's, for half as many outputs again as
 * 192 x 128 brings in 40 KB; beside the three consumers' 48 KB of store boxes the ring has 3 stages. At 3072 the
 * rounds are what it changes: 256 tiles of 192 x 192 take 2 rounds (even_waves' grid: 128 blocks of two tiles), where
 * fitted_tiles' 384 tiles of 192 x 128 take 3 of two thirds the outputs. Its stores are not overlapped with the next
 * tile's k-loop: 96 accumulators and 48 bf16 pairs do not fit in 152 registers beside the loop's addresses
 * (overlaps_stores). Where the rule keeps another tile, this rung is fitted_tiles.
 *
 * Counters that should move against fitted_tiles where the square tile is chosen: time down by the round saved (the
 * rule's estimate at 3072: 58,752 against 61,056, 3.8 %); L2-to-SM bytes per operation down (a k-tile's 48 KB feed
 * 192 x 192 outputs, 40 KB fed 192 x 128); tensor pipe busy up.
 */
#include "tensor_ws.cuh"

extern "C" const char *matmul_square_tiles(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    struct ws_tile tile;
    const char *why = ws_tile_on_device(o->shape, square_tile, &tile);
    if (why)
        return why;
    if (tile.bn != SQ_SIDE)
        return matmul_fitted_tiles(o, grid, block);
    if (!tensor_shape_matches(grid, block, o->shape, WS_BM, WS_BN, TT_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    return launch_ws_gemm<true, false, true, true, SQ_SIDE, 3>(o, grid, dim3(TT_THREADS));
}

/* The square tile's kernel where it is taken, else fitted_tiles' choice; NULL where the device cannot be asked. */
extern "C" const void *matmul_square_tiles_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,
                                                  unsigned *threads)
{
    struct ws_tile tile;
    if (ws_tile_on_device(shape, square_tile, &tile))
        return NULL;
    if (tile.bn != SQ_SIDE)
        return matmul_fitted_tiles_kernel(shape, dynamic_smem_bytes, threads);
    *dynamic_smem_bytes = ws_shape<false, true, SQ_SIDE, 3>::SMEM, *threads = TT_THREADS;
    return (const void *)ws_gemm_kernel<true, false, true, SQ_SIDE, 3>;
}
