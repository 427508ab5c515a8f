/*
 * paired_tiles: fitted_tiles with two vertically adjacent tiles computed by a 2-CTA cluster, which shares their
 * k-tiles of N (tensor_ws.cuh, CLUSTER, as in cluster_multicast): each CTA copies half of the B boxes with
 * .multicast::cluster into both CTAs' shared memory, so a CTA fetches its A k-tile and half a B k-tile from the L2
 * instead of all of both. cuBLAS runs its 128 x 320 kernels at 5120, 5632 and 7680 in such pairs (1 x 2 clusters),
 * and there keeps its tensor pipe 1-1.4 points busier than fitted_tiles' (docs/tensor-ladder.md). The tile is
 * fitted_tiles' choice; the rounds are of pairs of tiles on the clusters that fit (even_waves' count of them).
 * Where the rule pairs no tile (pairs_tiles, tensor_tiles.h), this rung is fitted_tiles.
 *
 * Counters that should move against fitted_tiles where the tiles are paired: L2-to-SM bytes per operation down
 * (a 128 x 320 k-tile: 16 + 20 KB a CTA instead of 16 + 40), L2 throughput down; tensor pipe busy up and time down
 * where the feed held the k-loop back; where it did not, the pairing costs a little (the slower CTA holds back
 * both producers).
 */
#include "tensor_ws.cuh"

template <int BN, int CONSUMERS, bool OVERLAP> static const char *launch_paired(const struct matmul_operands *o, dim3 grid)
{
    typedef ws_shape<true, true, BN, CONSUMERS> S;
    return launch_ws_gemm<true, true, true, true, BN, CONSUMERS, false, OVERLAP>(o, grid, dim3(S::THREADS));
}

template <int BN, int CONSUMERS> static const void *paired_kernel(bool overlap, size_t *dynamic_smem_bytes,
                                                                  unsigned *threads)
{
    typedef ws_shape<true, true, BN, CONSUMERS> S;
    *dynamic_smem_bytes = S::SMEM, *threads = S::THREADS;
    if constexpr (BN == WT_WIDE_BN)
        return (const void *)ws_gemm_kernel<true, true, true, BN, CONSUMERS>;
    else
        return overlap ? (const void *)ws_gemm_kernel<true, true, true, BN, CONSUMERS, false, true>
                       : (const void *)ws_gemm_kernel<true, true, true, BN, CONSUMERS, false, false>;
}

extern "C" const char *matmul_paired_tiles(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    struct ws_tile tile;
    int sms;
    const char *why = ws_tile_on_device(o->shape, fitted_tile, &tile);
    if (!why)
        why = ws_device_sms(&sms);
    if (why)
        return why;
    if (!pairs_tiles(tile))
        return matmul_fitted_tiles(o, grid, block);
    if (!tensor_shape_matches(grid, block, o->shape, WS_BM, WS_BN, TT_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    const bool overlap = overlaps_stores(tile, o->shape.rows, o->shape.cols, sms);
    if (tile.bn == WT_WIDE_BN)
        return launch_paired<WT_WIDE_BN, 2, false>(o, grid);
    if (tile.bm == TT_TALL_BM)
        return overlap ? launch_paired<128, 3, true>(o, grid) : launch_paired<128, 3, false>(o, grid);
    if (tile.bn == WS_BN)
        return overlap ? launch_paired<WS_BN, 2, true>(o, grid) : launch_paired<WS_BN, 2, false>(o, grid);
    if (tile.bn == 128)
        return overlap ? launch_paired<128, 2, true>(o, grid) : launch_paired<128, 2, false>(o, grid);
    return overlap ? launch_paired<64, 2, true>(o, grid) : launch_paired<64, 2, false>(o, grid);
}

/* The paired kernel of the tile chosen at this shape, else fitted_tiles'; NULL where the device cannot be asked. */
extern "C" const void *matmul_paired_tiles_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,
                                                  unsigned *threads)
{
    struct ws_tile tile;
    int sms;
    if (ws_tile_on_device(shape, fitted_tile, &tile) || ws_device_sms(&sms))
        return NULL;
    if (!pairs_tiles(tile))
        return matmul_fitted_tiles_kernel(shape, dynamic_smem_bytes, threads);
    const bool overlap = overlaps_stores(tile, shape.rows, shape.cols, sms);
    if (tile.bn == WT_WIDE_BN)
        return paired_kernel<WT_WIDE_BN, 2>(overlap, dynamic_smem_bytes, threads);
    if (tile.bm == TT_TALL_BM)
        return paired_kernel<128, 3>(overlap, dynamic_smem_bytes, threads);
    if (tile.bn == WS_BN)
        return paired_kernel<WS_BN, 2>(overlap, dynamic_smem_bytes, threads);
    return tile.bn == 128 ? paired_kernel<128, 2>(overlap, dynamic_smem_bytes, threads)
                          : paired_kernel<64, 2>(overlap, dynamic_smem_bytes, threads);
}
