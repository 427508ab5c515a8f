/*
 * taller_tiles: chosen_tiles with one more tile to choose from, 192 x 128 (tensor_tiles.h, taller_tile). A third
 * consumer warpgroup takes rows 128 to 191 of the tile, so a block is four warpgroups: the producer's TMA copies of
 * each k-tile of A are half as large again and feed three consumers, each B k-tile feeds 192 rows instead of 128. The
 * rounds are what the tile changes: at W = 3072, 288 tiles of 128 x 256 take 3 rounds, the last of 24 tiles; 576 of 128
 * x 128 take 5 rounds of half the time; 384 of 192 x 128 take 3 rounds of three quarters, every SM busy but in the
 * last. Taller tiles than 128 x 256 cannot be had the same way: the 64K registers of an SM leave each of three
 * consumers 152, too few for 64 x 256 FP32 accumulators (128 a thread). Where the rule keeps a tile of 128 rows, this
 * rung is chosen_tiles.
 *
 * Counters that should move against chosen_tiles where a tall tile is chosen: SM busy up where the last round
 * emptied SMs, time down by the rounds saved; L2-to-SM bytes per operation down against 128 x 128 (each B k-tile
 * feeds 192 rows, each A k-tile 128 columns), up against 128 x 256; registers per thread at the launch bound of 512
 * threads (128), the consumers raising theirs to 152 with setmaxnreg.
 */
#include "tensor_ws.cuh"

/* The block is the chosen kernel's: four warpgroups for a tall tile, three for a tile of 128 rows. */
template <int BN, int CONSUMERS> static const char *launch_taller(const struct matmul_operands *o, dim3 grid)
{
    return launch_ws_gemm<true, false, true, true, BN, CONSUMERS>(o, grid,
                                                                  dim3(ws_shape<false, true, BN, CONSUMERS>::THREADS));
}

extern "C" const char *matmul_taller_tiles(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    if (!tensor_shape_matches(grid, block, o->shape, WS_BM, WS_BN, TT_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    struct ws_tile tile;
    const char *why = ws_tile_on_device(o->shape, taller_tile, &tile);
    if (why)
        return why;
    if (tile.bm == TT_TALL_BM)
        return launch_taller<128, 3>(o, grid);
    return tile.bn == 64 ? launch_taller<64, 2>(o, grid)
                         : tile.bn == 128 ? launch_taller<128, 2>(o, grid) : launch_taller<WS_BN, 2>(o, grid);
}

/* The kernel of the tile chosen at this shape, its shared memory and its block. */
template <int BN, int CONSUMERS> static const void *taller_kernel(size_t *dynamic_smem_bytes, unsigned *threads)
{
    typedef ws_shape<false, true, BN, CONSUMERS> S;
    *dynamic_smem_bytes = S::SMEM, *threads = S::THREADS;
    return (const void *)ws_gemm_kernel<true, false, true, BN, CONSUMERS>;
}

/* NULL where the device cannot be asked (the harness then stops the job and says so). */
extern "C" const void *matmul_taller_tiles_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,
                                                  unsigned *threads)
{
    struct ws_tile tile;
    if (ws_tile_on_device(shape, taller_tile, &tile))
        return NULL;
    if (tile.bm == TT_TALL_BM)
        return taller_kernel<128, 3>(dynamic_smem_bytes, threads);
    return tile.bn == 64    ? taller_kernel<64, 2>(dynamic_smem_bytes, threads)
           : tile.bn == 128 ? taller_kernel<128, 2>(dynamic_smem_bytes, threads)
                            : taller_kernel<WS_BN, 2>(dynamic_smem_bytes, threads);
}
