/*
 * overlapped_stores: wider_tiles with each tile's stores overlapped with the next tile's first k-tile. A persistent
 * consumer stores its outputs between two tiles, and the tensor pipe idles meanwhile: the stmatrix writes into the
 * boxes, the barriers among its warps, and the waits for a box's last TMA store to have read it. Here the consumer
 * rounds its outputs to bf16 pairs in registers (64 beside 128 accumulators in a 128 x 256 tile), issues the next
 * tile's first k-tile of wgmma, and stores the pairs while they run (tensor_ws.cuh, OVERLAP); the last tile's are
 * stored after the loop, as before. The tile is wider_tiles' choice (tensor_tiles.h, wider_tile). Where that is the
 * 128 x 320 tile, whose 160 accumulators leave no room for the pairs, or where every block takes one tile, with no
 * next tile to overlap (overlaps_stores), this rung is wider_tiles.
 *
 * Counters that should move against wider_tiles where the stores overlap: tensor pipe busy up and time down by a
 * store a tile but the last (most where a block takes few tiles of short k-loops: inner 1024); nothing elsewhere.
 */
#include "tensor_ws.cuh"

template <int BN, int CONSUMERS> static const char *launch_overlapped(const struct matmul_operands *o, dim3 grid)
{
    typedef ws_shape<false, true, BN, CONSUMERS> S;
    return launch_ws_gemm<true, false, true, true, BN, CONSUMERS, false, true>(o, grid, dim3(S::THREADS));
}

extern "C" const char *matmul_overlapped_stores(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    if (!tensor_shape_matches(grid, block, o->shape, WS_BM, WS_BN, TT_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    struct ws_tile tile;
    int sms;
    const char *why = ws_tile_on_device(o->shape, wider_tile, &tile);
    if (!why)
        why = ws_device_sms(&sms);
    if (why)
        return why;
    if (!overlaps_stores(tile, o->shape.rows, o->shape.cols, sms))
        return matmul_wider_tiles(o, grid, block);
    if (tile.bm == TT_TALL_BM)
        return launch_overlapped<128, 3>(o, grid);
    return tile.bn == 64    ? launch_overlapped<64, 2>(o, grid)
           : tile.bn == 128 ? launch_overlapped<128, 2>(o, grid)
                            : launch_overlapped<WS_BN, 2>(o, grid);
}

template <int BN, int CONSUMERS> static const void *overlapped_kernel(size_t *dynamic_smem_bytes, unsigned *threads)
{
    typedef ws_shape<false, true, BN, CONSUMERS> S;
    *dynamic_smem_bytes = S::SMEM, *threads = S::THREADS;
    return (const void *)ws_gemm_kernel<true, false, true, BN, CONSUMERS, false, true>;
}

/* The kernel of the tile chosen at this shape; NULL where the device cannot be asked. */
extern "C" const void *matmul_overlapped_stores_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,
                                                       unsigned *threads)
{
    struct ws_tile tile;
    int sms;
    if (ws_tile_on_device(shape, wider_tile, &tile) || ws_device_sms(&sms))
        return NULL;
    if (!overlaps_stores(tile, shape.rows, shape.cols, sms))
        return matmul_wider_tiles_kernel(shape, dynamic_smem_bytes, threads);
    if (tile.bm == TT_TALL_BM)
        return overlapped_kernel<128, 3>(dynamic_smem_bytes, threads);
    return tile.bn == 64    ? overlapped_kernel<64, 2>(dynamic_smem_bytes, threads)
           : tile.bn == 128 ? overlapped_kernel<128, 2>(dynamic_smem_bytes, threads)
                            : overlapped_kernel<WS_BN, 2>(dynamic_smem_bytes, threads);
}
