/*
 * short_tiles: square_tiles with tiles of 64 rows to choose from too, 64 x 128 and 64 x 64 (tensor_tiles.h,
 * short_tile): one consumer warpgroup, whose wgmma m64n128k16 or m64n64k16 take the tile's 64 rows. A product of few
 * rows, a small batch's (64 x 4096 x 4096), in 128-row tiles computes as many rows past its end as rows it has: 64
 * tiles of 128 x 64, each half zeros that TMA filled in and the tensor pipe multiplies. In 64 x 64 tiles the 64
 * blocks multiply only the rows that are there. A block is a producer and one consumer (256 threads); the ring takes
 * 8 stages of 64 x 128's 24 KB k-tiles or 12 of 64 x 64's 16 KB. Its stores are not overlapped: the rule takes it where
 * a round or two does the product. Where the rule keeps another tile, this rung is square_tiles.
 *
 * Counters that should move against square_tiles where a short tile is chosen: time down by the rows no longer
 * computed (half at 64 rows); tensor pipe busy down per SM (one consumer); L2-to-SM bytes the same where the tile
 * count stays (the rows past the product's end were never read) and up where it doubles (each B k-tile read for 64
 * rows, not 128).
 */
#include "tensor_ws.cuh"

template <int BN> static const char *launch_short(const struct matmul_operands *o, dim3 grid)
{
    return launch_ws_gemm<true, false, true, true, BN, 1>(o, grid, dim3(ws_shape<false, true, BN, 1>::THREADS));
}

extern "C" const char *matmul_short_tiles(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    struct ws_tile tile;
    const char *why = ws_tile_on_device(o->shape, short_tile, &tile);
    if (why)
        return why;
    if (tile.bm != SH_ROWS)
        return matmul_square_tiles(o, grid, block);
    if (!tensor_shape_matches(grid, block, o->shape, WS_BM, WS_BN, TT_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    return tile.bn == 128 ? launch_short<128>(o, grid) : launch_short<64>(o, grid);
}

template <int BN> static const void *short_kernel(size_t *dynamic_smem_bytes, unsigned *threads)
{
    typedef ws_shape<false, true, BN, 1> S;
    *dynamic_smem_bytes = S::SMEM, *threads = S::THREADS;
    return (const void *)ws_gemm_kernel<true, false, true, BN, 1>;
}

/* The short tile's kernel where it is taken, else square_tiles' choice; NULL where the device cannot be asked. */
extern "C" const void *matmul_short_tiles_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,
                                                 unsigned *threads)
{
    struct ws_tile tile;
    if (ws_tile_on_device(shape, short_tile, &tile))
        return NULL;
    if (tile.bm != SH_ROWS)
        return matmul_square_tiles_kernel(shape, dynamic_smem_bytes, threads);
    return tile.bn == 128 ? short_kernel<128>(dynamic_smem_bytes, threads)
                          : short_kernel<64>(dynamic_smem_bytes, threads);
}
