/*
 * fitted_tiles: overlapped_stores with one more tile to choose from, 128 x 144 (tensor_tiles.h, fitted_tile). A
 * wgmma's width is any multiple of 8 up to 256, so a tile's need not be a power of two: at 1536 x 1536, 144 columns
 * cut the product into 12 x 11 tiles, one for each of 132 SMs, where overlapped_stores' 192 x 128 tiles are 96 and
 * leave 36 SMs idle for the whole kernel. Each consumer takes its 64 x 144 outputs in one wgmma m64n144k16 a k-step
 * (72 accumulators a thread). Its B k-tile is nine boxes of 16 columns in TMA's 32-byte swizzle (tensor_hopper.cuh,
 * b_desc_narrow), not three of 64 (the 128-byte swizzle's width), which would load 48 columns it does not use: a
 * k-tile of 16 KB of A and 18 KB of B. The tile's first 128 columns are stored as two TMA boxes, its last 16
 * straight from the registers (ws_store_tail): a box of 64 would write into the next tile. Where the rule keeps
 * another tile, this rung is overlapped_stores.
 *
 * Counters that should move against overlapped_stores where the fitted tile is chosen: SM busy up by the SMs that
 * idled; time down by the outputs a block no longer computes (a quarter at 1536); L2-to-SM bytes per operation up
 * (A read for 144 columns, not for 128 with 1.5 times the rows).
 */
#include "tensor_ws.cuh"

extern "C" const char *matmul_fitted_tiles(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    struct ws_tile tile;
    const char *why = ws_tile_on_device(o->shape, fitted_tile, &tile);
    if (why)
        return why;
    if (tile.bn != FT_FIT_BN)
        return matmul_overlapped_stores(o, grid, block);
    if (!tensor_shape_matches(grid, block, o->shape, WS_BM, WS_BN, TT_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    return launch_ws_gemm<true, true, true, false, FT_FIT_BN>(o, grid, dim3(WS_THREADS));
}

/* The fitted tile's kernel where it is taken, else overlapped_stores' choice; NULL where the device cannot be asked. */
extern "C" const void *matmul_fitted_tiles_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,
                                                  unsigned *threads)
{
    struct ws_tile tile;
    if (ws_tile_on_device(shape, fitted_tile, &tile))
        return NULL;
    if (tile.bn != FT_FIT_BN)
        return matmul_overlapped_stores_kernel(shape, dynamic_smem_bytes, threads);
    *dynamic_smem_bytes = ws_shape<true, true, FT_FIT_BN>::SMEM, *threads = WS_THREADS;
    return (const void *)ws_gemm_kernel<true, true, true, FT_FIT_BN>;
}
