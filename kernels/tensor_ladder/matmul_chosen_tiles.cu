/*
 * chosen_tiles: even_waves with the tile chosen by the shape (tensor_tiles.h, chosen_tile_n). A persistent kernel
 * runs in rounds of one tile a block, so its time is its rounds times a tile's time; tiles of 128 x 256 leave most
 * SMs idle where the product has few of them, and round up badly where their count sits just past a multiple of
 * the SMs: at W = 1024, 32 tiles for 132 SMs (one round, 100 SMs idle); at 3072, 288 tiles take 3 rounds of which
 * the last is 24 tiles. Narrower tiles shorten a tile and multiply the tiles: at 1024, 128 tiles of 128 x 64 fill
 * one round of a quarter of the time; at 3072, 576 of 128 x 128 take 5 rounds of half. But a narrower tile reuses
 * each A k-tile over fewer columns: it moves more bytes from the L2 per operation, and costs more a column than its
 * share of the wide tile's time (the rule's costs a column are measured: docs/tensor-ladder.md). Where the rounds come out even (2048, 4096, 8192) the wide tile stays. The narrow kernels
 * are tensor_ws.cuh's with BN = 128 or 64: each consumer's wgmma m64n128k16 or m64n64k16, its accumulators 64 or 32
 * registers, its ring of 32 or 24 KB k-tiles 6 or 8 stages deep, as many bytes in flight as 4 stages of 48 KB.
 *
 * Counters that should move against even_waves where a narrow tile is chosen: SM busy and tensor pipe busy up
 * (more SMs working, fewer idle rounds), time down by the rounds saved; L2-to-SM bytes per operation up (A is read
 * once for every 128 or 64 columns, not 256); nothing where the wide tile is chosen (even_waves' kernel and grid).
 */
#include "tensor_ws.cuh"

extern "C" const char *matmul_chosen_tiles(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    struct ws_tile tile;
    const char *why = ws_tile_on_device(o->shape, chosen_tile, &tile);
    if (why)
        return why;
    if (tile.bn == 64)
        return launch_ws_gemm<true, false, true, true, 64>(o, grid, block);
    if (tile.bn == 128)
        return launch_ws_gemm<true, false, true, true, 128>(o, grid, block);
    return launch_ws_gemm<true, false, true, true>(o, grid, block);
}

/* The kernel of the tile chosen at this shape, and its shared memory. */
template <int BN> static const void *chosen_kernel(size_t *dynamic_smem_bytes)
{
    *dynamic_smem_bytes = ws_shape<false, true, BN>::SMEM;
    return (const void *)ws_gemm_kernel<true, false, true, BN>;
}

/* NULL where the device cannot be asked (the harness then stops the job and says so). */
extern "C" const void *matmul_chosen_tiles_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,
                                                  unsigned *threads)
{
    (void)threads; /* the registry's: three warpgroups whatever the tile */
    struct ws_tile tile;
    if (ws_tile_on_device(shape, chosen_tile, &tile))
        return NULL;
    return tile.bn == 64    ? chosen_kernel<64>(dynamic_smem_bytes)
           : tile.bn == 128 ? chosen_kernel<128>(dynamic_smem_bytes)
                            : chosen_kernel<WS_BN>(dynamic_smem_bytes);
}
