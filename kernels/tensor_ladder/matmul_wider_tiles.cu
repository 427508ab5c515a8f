/*
 * wider_tiles: taller_tiles with one more tile to choose from, 128 x 320 (tensor_tiles.h, wider_tile), the tile
 * cuBLAS runs at 5120, 5632, 7680 and 8192 (docs/tensor-ladder.md, "Tried: stream-K"). Each consumer warpgroup keeps
 * 64 x 320 outputs: a wgmma m64n256k16 over the first four 64-column boxes of the B k-tile and an m64n64k16 over the
 * fifth, 160 FP32 accumulators a thread under the 232 registers a consumer takes. A k-tile is 16 KB of A and 40 KB of
 * B, so the ring holds 3 stages; the store is five TMA boxes a consumer. The rounds are what the tile changes: at
 * W = 5120, 640 tiles of 128 x 320 take 5 whole rounds of 128 blocks, against taller_tiles' 13 rounds of 128 x 128
 * (1600 tiles, half the outputs at cost 107 %) or 7 of 128 x 256, the last of 8 tiles. Each A k-tile feeds 320
 * columns, not 256 or 128: fewer bytes from the L2 an operation. Where the rule keeps another tile, this rung is
 * taller_tiles.
 *
 * Counters that should move against taller_tiles where the wide tile is chosen: time down by the rounds saved; SM
 * busy up where the last round emptied SMs; L2-to-SM bytes per operation down (A read once for every 320 columns).
 */
#include "tensor_ws.cuh"

extern "C" const char *matmul_wider_tiles(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    struct ws_tile tile;
    const char *why = ws_tile_on_device(o->shape, wider_tile, &tile);
    if (why)
        return why;
    if (tile.bn != WT_WIDE_BN)
        return matmul_taller_tiles(o, grid, block);
    if (!tensor_shape_matches(grid, block, o->shape, WS_BM, WS_BN, TT_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    return launch_ws_gemm<true, false, true, true, WT_WIDE_BN>(o, grid, dim3(WS_THREADS));
}

/* The wide tile's kernel where it is taken, else taller_tiles' choice; NULL where the device cannot be asked. */
extern "C" const void *matmul_wider_tiles_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,
                                                  unsigned *threads)
{
    struct ws_tile tile;
    if (ws_tile_on_device(shape, wider_tile, &tile))
        return NULL;
    if (tile.bn != WT_WIDE_BN)
        return matmul_taller_tiles_kernel(shape, dynamic_smem_bytes, threads);
    *dynamic_smem_bytes = ws_shape<false, true, WT_WIDE_BN>::SMEM, *threads = WS_THREADS;
    return (const void *)ws_gemm_kernel<true, false, true, WT_WIDE_BN>;
}
