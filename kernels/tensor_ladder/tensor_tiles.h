/*
 * Tile parameters of the bf16 tensor-core ladder (kernels/tensor_ladder/), in one place because the registry (C)
 * takes each row's launch shape from here and the kernels (CUDA) their loops. BM x BN is the block tile of P,
 * BK the depth of one shared-memory tile along k, THREADS the threads of a block.
 */
#ifndef MEMSCOPE_TENSOR_TILES_H
#define MEMSCOPE_TENSOR_TILES_H

#include <stddef.h>

/* mma_global: 4 warps of 32 x 32 outputs, fragments read from global memory. */
#define TG_BM 64
#define TG_BN 64
#define TG_THREADS 128

/* ldmatrix, ldmatrix_padded, ldmatrix_swizzled, cp_async: 8 warps (2 x 4) of 64 x 32 outputs, k-tiles of 64
 * (one 128-byte row of A per k-tile row: the width at which an unswizzled tile conflicts 8 ways). */
#define TS_BM 128
#define TS_BN 128
#define TS_BK 64
#define TS_THREADS 256
#define TS_STAGES 4 /* cp_async's ring of k-tiles: 4 x 32 KB */

/* tma_wgmma: two warpgroups of 64 x 128 outputs (wgmma m64n128k16), every thread a consumer. */
#define TW_BM 128
#define TW_BN 128
#define TW_BK 64
#define TW_THREADS 256
#define TW_STAGES 4

/* warp_specialized and the rungs above it: a producer warpgroup and two consumer warpgroups of 64 x 256 outputs
 * (wgmma m64n256k16). */
#define WS_BM 128
#define WS_BN 256
#define WS_BK 64
#define WS_THREADS 384
#define WS_STAGES 4 /* 4 x 48 KB */
#define WS_STORE_BOXES 2 /* tma_store: each consumer's 64 x 64 boxes of P in flight, 2 x 2 x 8 KB beside the ring */
#define WS_BOX_BYTES (64 * 64 * 2) /* one 64 x 64 bf16 box of P: a TMA store */

/* even_waves' grid. A persistent block walks the tiles b, b + G, b + 2G, ... so the kernel takes
 * R = ceil(tiles / G) rounds of tiles. One block per SM gives the fewest rounds; even_waves keeps that R and
 * launches the fewest blocks that still finish in R rounds: every round but the last whole, the last as full as it
 * can be. Here, in C, so that tests/kernels checks the rule without a GPU. `tiles` and `sms` are >= 1: 512 tiles on
 * 132 SMs take 4 rounds either way, on 128 blocks every round is whole; 1050 tiles need 8 rounds, which only 132
 * blocks give. */
static inline int even_waves_grid(int tiles, int sms)
{
    const int rounds = (tiles + sms - 1) / sms;
    return (tiles + rounds - 1) / rounds;
}

/* chosen_tiles' tile for an m x n product on `sms` SMs: 128 rows, and of 256, 128 and 64 columns the width whose
 * rounds of tiles (one tile a block a round, tensor_ws.cuh's persistent order) take least time, a round taking as
 * long as one tile and a tile its outputs times its shape's cost an output against 128 x 256's, in percent
 * (ct_cost_pct); the wider tile on a tie, since each A k-tile it loads feeds more columns. Here, in C, so that
 * tests/kernels checks it without a GPU. 1024 x 1024 on 132 SMs: 32 tiles of 256 columns or 128 of 64, one round
 * either way: 64. 4096: 4 rounds of 256 against 8 of 128 and 16 of 64: 256. */
#define CT_NARROWEST_BN 64
/* A tile's cost an output, percent of 128 x 256's: measured on an H200 (docs/tensor-ladder.md, "chosen_tiles",
 * "taller_tiles", "wider_tiles" and "fitted_tiles"), the ratio of the tile's time to what its rounds alone predict;
 * 192 x 192's is chosen between two shapes' measured costs ("square_tiles"). */
#define CT_COST_128 107
#define CT_COST_64 176
#define CT_COST_192_128 106
#define CT_COST_128_320 100
#define TT_TALL_BM 192 /* taller_tiles' tall tiles: three consumer warpgroups of 64 rows */
#define TT_THREADS 512 /* taller_tiles' row: the block of its tall tiles, a producer and three consumers */
#define WT_WIDE_BN 320 /* wider_tiles' wide tiles: five 64-column boxes of N */
#define FT_ROWS 144    /* fitted_tiles' tiles: 144 x 128, computed as tiles of P^T (tensor_ws.cuh, TRANSPOSED) */
#ifndef CT_COST_144_128 /* -D: a copy whose rule takes the tile wherever it fits (its cost measured) */
#define CT_COST_144_128 106
#endif
#define SQ_SIDE 192 /* square_tiles' tiles: 192 x 192, three consumer warpgroups of 64 x 192 */
#ifndef CT_COST_192_192 /* -D: a copy whose rule takes the tile wherever it fits (its cost measured) */
#define CT_COST_192_192 102 /* chosen between two shapes' measured costs (docs/tensor-ladder.md, "square_tiles") */
#endif
/* short_tiles' tiles, 64 x 128 and 64 x 64 (one consumer warpgroup). Their costs are chosen within the bounds that
 * the fastest tile measured at nine products sets (an H200, docs/tensor-ladder.md, "short_tiles"), the same nine the
 * rule was then checked at: 64 x 128 at least 107 (512 x 4096 x 4096 keeps 128 x 128) and below 176 (1024 x 1024 x
 * 8192, 768 x 768 x 8192 and 256 x 4096 x 4096 take it over 128 x 64); 64 x 64 at least 64 x 128's (those three and
 * 64 x 11008 x 4096 keep 64 x 128, which a tie keeps) and below twice it (64 and 128 x 4096 x 4096 take it). */
#define SH_ROWS 64
#ifndef CT_COST_64_128 /* -D: a copy whose rule takes the tile wherever it fits (its cost measured) */
#define CT_COST_64_128 150
#endif
#ifndef CT_COST_64_64
#define CT_COST_64_64 250
#endif
static inline int ct_cost_pct(int bm, int bn)
{
    if (bm == SH_ROWS)
        return bn == 128 ? CT_COST_64_128 : CT_COST_64_64;
    if (bm == TT_TALL_BM)
        return bn == SQ_SIDE ? CT_COST_192_192 : CT_COST_192_128;
    if (bm == FT_ROWS)
        return CT_COST_144_128;
    if (bn == WT_WIDE_BN)
        return CT_COST_128_320;
    return bn == WS_BN ? 100 : bn == 128 ? CT_COST_128 : CT_COST_64;
}

/* The time of an m x n product's rounds of bm x bn tiles on sms SMs, in units of a 128 x 256 tile's output, %. */
static inline long long ct_rounds_time(int m, int n, int sms, int bm, int bn)
{
    const long long tiles = (long long)((m + bm - 1) / bm) * ((n + bn - 1) / bn), rounds = (tiles + sms - 1) / sms;
    return rounds * bm * bn * ct_cost_pct(bm, bn);
}

static inline int chosen_tile_n(int m, int n, int sms)
{
    int best = WS_BN;
    for (int bn = WS_BN / 2; bn >= CT_NARROWEST_BN; bn /= 2)
        if (ct_rounds_time(m, n, sms, WS_BM, bn) < ct_rounds_time(m, n, sms, WS_BM, best))
            best = bn;
    return best;
}

struct ws_tile {
    int bm, bn;
};

/* chosen_tiles' tile as a tile. */
static inline struct ws_tile chosen_tile(int m, int n, int sms)
{
    const struct ws_tile t = {WS_BM, chosen_tile_n(m, n, sms)};
    return t;
}

/* The tile of least time by the rounds: of `count` candidates, larger first, the first on a tie. */
static inline struct ws_tile least_time_tile(int m, int n, int sms, const struct ws_tile *by_size, size_t count)
{
    struct ws_tile best = by_size[0];
    for (size_t i = 1; i < count; ++i)
        if (ct_rounds_time(m, n, sms, by_size[i].bm, by_size[i].bn) < ct_rounds_time(m, n, sms, best.bm, best.bn))
            best = by_size[i];
    return best;
}

/* taller_tiles' tile: of chosen_tiles' three and 192 x 128 (tensor_ws.cuh with a third consumer warpgroup, whose
 * registers do not hold 64 x 256 accumulators), the one whose rounds take least time by the same costs; the larger tile
 * on a tie. (192 x 64 would be chosen at no square width on 132 SMs: it is not offered.) 3072 x 3072 on 132 SMs: 288
 * tiles of 128 x 256 take 3 rounds with 24 tiles in the last, 384 of 192 x 128 take 3 rounds of three quarters the
 * time. */
static inline struct ws_tile taller_tile(int m, int n, int sms)
{
    static const struct ws_tile by_size[] = {{WS_BM, WS_BN}, {TT_TALL_BM, 128}, {WS_BM, 128}, {WS_BM, 64}};
    return least_time_tile(m, n, sms, by_size, sizeof by_size / sizeof *by_size);
}

/* wider_tiles' tile: taller_tiles' four and 128 x 320 (tensor_ws.cuh: each consumer a wgmma m64n256k16 and an
 * m64n64k16 a k-step), by the same rounds and costs; the wide tile on a tie. 5120 x 5120 on 132 SMs: 640 tiles of
 * 128 x 320 take 5 rounds of 1.25 times a 128 x 256 tile's outputs, against 7 rounds of 128 x 256 (800 tiles) and 13
 * of 128 x 128, half the outputs at cost 107 %. */
static inline struct ws_tile wider_tile(int m, int n, int sms)
{
    static const struct ws_tile by_size[] = {
        {WS_BM, WT_WIDE_BN}, {WS_BM, WS_BN}, {TT_TALL_BM, 128}, {WS_BM, 128}, {WS_BM, 64}};
    return least_time_tile(m, n, sms, by_size, sizeof by_size / sizeof *by_size);
}

/* overlapped_stores' rule: whether a product of this shape, in tile t, stores a tile while the next tile's first
 * k-tile runs. Not where every block takes one tile (tiles <= sms): there is no next tile, and the overlapped kernel
 * measured slower there (docs/tensor-ladder.md); not in the 128 x 320 tile, whose 160 accumulators leave no registers
 * for the pairs, nor in the 192 x 192 tile, whose 96 accumulators and 48 pairs do not fit beside a three-consumer
 * block's addresses in 152 registers. On 132 SMs, in wider_tiles' tile: 2048 x 2048, 128 tiles of 128 x 256 in one
 * round, no; 8192 x 1024, 256 tiles in two rounds, yes; 5120 x 5120, the 128 x 320 tile, no. */
static inline int overlaps_stores(struct ws_tile t, int m, int n, int sms)
{
    const long long tiles = (long long)((m + t.bm - 1) / t.bm) * ((n + t.bn - 1) / t.bn);
    return t.bn != WT_WIDE_BN && t.bn != SQ_SIDE && tiles > sms;
}

/* fitted_tiles' tile: wider_tiles' five and 144 x 128, by the same rounds and costs, in order of size. 144 rows fit
 * 1536 x 1536 to 132 SMs: 11 x 12 tiles, one round of three quarters a 192 x 128 tile's outputs, where 192 x 128
 * leaves 36 SMs idle (96 tiles). */
static inline struct ws_tile fitted_tile(int m, int n, int sms)
{
    static const struct ws_tile by_size[] = {{WS_BM, WT_WIDE_BN}, {WS_BM, WS_BN}, {TT_TALL_BM, 128},
                                             {FT_ROWS, 128},      {WS_BM, 128},   {WS_BM, 64}};
    return least_time_tile(m, n, sms, by_size, sizeof by_size / sizeof *by_size);
}

/* square_tiles' tile: fitted_tiles' six and 192 x 192 (three consumers of 64 x 192: a k-tile is 128 x 256's 48 KB,
 * for 9/8 its outputs), by the same rounds and costs, in order of size. 3072 x 3072 on 132 SMs: 256 tiles of
 * 192 x 192 take 2 rounds, 58,752 (rounds x rows x columns x cost / 128) against 384 of 192 x 128 in 3 rounds,
 * 61,056. */
static inline struct ws_tile square_tile(int m, int n, int sms)
{
    static const struct ws_tile by_size[] = {{WS_BM, WT_WIDE_BN}, {SQ_SIDE, SQ_SIDE}, {WS_BM, WS_BN}, {TT_TALL_BM, 128},
                                             {FT_ROWS, 128},      {WS_BM, 128},        {WS_BM, 64}};
    return least_time_tile(m, n, sms, by_size, sizeof by_size / sizeof *by_size);
}

/* short_tiles' tile: square_tiles' seven and 64 x 128 and 64 x 64 (one consumer warpgroup of 64 rows), by the same
 * rounds and costs, in order of size (128 x 64 before 64 x 128). Where a product has few rows, 128-row tiles compute
 * rows past its end: 64 x 4096 on 132 SMs takes 64 tiles of 128 x 64 in one round, 128 x 64 x 176 = 1,441,792, half
 * of it rows that are not there; 64 x 128, 32 tiles, 64 x 128 x 150 = 1,228,800; 64 x 64, 64 tiles, 64 x 64 x 250 =
 * 1,024,000. The stores of its 64-row tiles are never overlapped (matmul_short_tiles.cu has no overlapped kernel of
 * its own); where it keeps a larger tile, matmul_short_tiles.cu runs square_tiles' choice, overlapped where that is. */
static inline struct ws_tile short_tile(int m, int n, int sms)
{
    static const struct ws_tile by_size[] = {{WS_BM, WT_WIDE_BN}, {SQ_SIDE, SQ_SIDE}, {WS_BM, WS_BN},
                                             {TT_TALL_BM, 128},   {FT_ROWS, 128},      {WS_BM, 128},
                                             {WS_BM, 64},         {SH_ROWS, 128},      {SH_ROWS, 64}};
    return least_time_tile(m, n, sms, by_size, sizeof by_size / sizeof *by_size);
}

#endif
