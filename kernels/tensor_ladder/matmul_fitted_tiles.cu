/*
 * fitted_tiles: overlapped_stores with one more tile to choose from, 144 x 128 (tensor_tiles.h, fitted_tile). At
 * 1536 x 1536, 144 rows cut the product into 11 x 12 tiles, one for each of 132 SMs, where overlapped_stores'
 * 192 x 128 tiles are 96 and leave 36 SMs idle for the whole kernel. A wgmma's N may be any multiple of 8 up to 256,
 * but a tile whose N-major B is not whole 64-column boxes (128 x 144, 192 x 96) measured 132-150 % of 128 x 256's
 * time an output (docs/tensor-ladder.md, "Tried"). So the kernel computes the tile of P^T = N^T M^T (tensor_ws.cuh,
 * TRANSPOSED): each consumer's wgmma m64n144k16 takes a 64-column box of N as A (M-major for it) and the tile's 144
 * rows of M as B, K-major, 18 whole 8-row groups; its 72 accumulators are rows of P^T, which stmatrix.trans writes
 * into the boxes of P as rows of P (the last 16 rows straight from the registers). A k-tile is 18 KB of M and 16 KB
 * of N, the same bytes as a 128 x 144 tile's. Where the rule keeps another tile, this rung is overlapped_stores.
 *
 * Counters that should move against overlapped_stores where the fitted tile is chosen: SM busy up by the SMs that
 * idled; time down by the outputs a block no longer computes (a quarter at 1536); L2-to-SM bytes per operation up
 * (N read for 144 rows, not for 192).
 */
#include "tensor_ws.cuh"

extern "C" const char *matmul_fitted_tiles(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    struct ws_tile tile;
    int sms;
    const char *why = ws_tile_on_device(o->shape, fitted_tile, &tile);
    if (!why)
        why = ws_device_sms(&sms);
    if (why)
        return why;
    if (tile.bm != FT_ROWS)
        return matmul_overlapped_stores(o, grid, block);
    if (!tensor_shape_matches(grid, block, o->shape, WS_BM, WS_BN, TT_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    if (overlaps_stores(tile, o->shape.rows, o->shape.cols, sms))
        return launch_ws_gemm<true, false, true, true, 128, 2, false, true, true>(o, grid, dim3(WS_THREADS));
    return launch_ws_gemm<true, false, true, true, 128, 2, false, false, true>(o, grid, dim3(WS_THREADS));
}

/* The fitted tile's kernel where it is taken, else overlapped_stores' choice; NULL where the device cannot be asked. */
extern "C" const void *matmul_fitted_tiles_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,
                                                  unsigned *threads)
{
    struct ws_tile tile;
    int sms;
    if (ws_tile_on_device(shape, fitted_tile, &tile) || ws_device_sms(&sms))
        return NULL;
    if (tile.bm != FT_ROWS)
        return matmul_overlapped_stores_kernel(shape, dynamic_smem_bytes, threads);
    *dynamic_smem_bytes = ws_shape<false, true, 128, 2, true>::SMEM, *threads = WS_THREADS;
    if (overlaps_stores(tile, shape.rows, shape.cols, sms))
        return (const void *)ws_gemm_kernel<true, false, true, 128, 2, false, true, true>;
    return (const void *)ws_gemm_kernel<true, false, true, 128, 2, false, false, true>;
}
