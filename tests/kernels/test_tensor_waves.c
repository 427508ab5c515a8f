/* even_waves' grid (kernels/tensor_ladder/tensor_tiles.h): the rounds of one block per SM, on the fewest blocks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../kernels/tensor_ladder/tensor_tiles.h"

static int rounds(int tiles, int blocks)
{
    return (tiles + blocks - 1) / blocks;
}

/* The H100's 132 SMs and 128 x 256 tiles at the ladder's widths: 32, 128, 512 and 2048 tiles. */
static void the_ladder_widths_on_an_h100(void **state)
{
    (void)state;
    assert_int_equal(even_waves_grid(32, 132), 32);    /* W = 1024: one round, a block a tile */
    assert_int_equal(even_waves_grid(128, 132), 128);  /* W = 2048 */
    assert_int_equal(even_waves_grid(512, 132), 128);  /* W = 4096: 4 rounds of 128, not 3 of 132 and 116 */
    assert_int_equal(even_waves_grid(2048, 132), 128); /* W = 8192: 16 rounds of 128 */
}

/* Where 132 blocks save a round, the grid stays 132; where the tiles fill every SM's rounds, nothing changes. */
static void never_a_round_more_than_one_block_per_sm(void **state)
{
    (void)state;
    assert_int_equal(even_waves_grid(1050, 132), 132); /* 8 rounds on 132; 128 blocks would take 9 */
    assert_int_equal(even_waves_grid(528, 132), 132);
    assert_int_equal(even_waves_grid(529, 132), 106); /* 5 rounds: 106 x 5 = 530 */
    assert_int_equal(even_waves_grid(1, 132), 1);
    assert_int_equal(even_waves_grid(7, 1), 1);
    for (int sms = 1; sms <= 144; sms += 11)
        for (int tiles = 1; tiles <= 5000; tiles += 7) {
            const int g = even_waves_grid(tiles, sms);
            assert_true(g >= 1 && g <= sms);
            assert_int_equal(rounds(tiles, g), rounds(tiles, sms));
            assert_true(g == 1 || rounds(tiles, g - 1) > rounds(tiles, sms)); /* the fewest blocks that do it */
        }
}

/* chosen_tiles' tile by the rounds each tile width takes on 132 SMs, worked out by hand at every multiple of 512
 * from 1024 to 8192: tiles of 128 rows; each width's tiles, its rounds, and their time, rounds x columns x the
 * width's cost a column (256: 100, 128: 107, 64: 176 %, measured on an H200); the least time wins, the wider tile on
 * a tie. */
static void each_shape_takes_the_tile_whose_rounds_take_least_time(void **state)
{
    (void)state;
    static const struct {
        int width, tile;
    } chosen[] = {
        {1024, 64},  /* 256: 32 tiles, 1 round, 25,600; 128: 64, 1, 13,696; 64: 128, 1, 11,264 */
        {1536, 256}, /* 72, 1, 25,600; 144, 2, 27,392; 288, 3, 33,792 */
        {2560, 256}, /* 200, 2, 51,200; 400, 4, 54,784; 800, 7, 78,848 */
        {3072, 128}, /* 288, 3, 76,800; 576, 5, 68,480; 1152, 9, 101,376 */
        {5120, 128}, /* 800, 7, 179,200; 1600, 13, 178,048; 3200, 25, 281,600 */
        {5632, 256}, /* 968, 8, 204,800; 1936, 15, 205,440 */
        {6656, 256}, /* 1352, 11, 281,600; 2704, 21, 287,616 */
        /* the wide tile's rounds whole or nearly so: 2048, 128 tiles in 1 round, 25,600, against 256 in 2, 27,392;
         * the others likewise */
        {2048, 256}, {3584, 256}, {4096, 256}, {4608, 256}, {6144, 256}, {7168, 256}, {7680, 256}, {8192, 256},
    };
    for (size_t i = 0; i < sizeof chosen / sizeof *chosen; ++i)
        if (chosen_tile_n(chosen[i].width, chosen[i].width, 132) != chosen[i].tile)
            fail_msg("W = %d: %d columns, not %d", chosen[i].width, chosen_tile_n(chosen[i].width, chosen[i].width, 132),
                     chosen[i].tile);
    /* one SM: every tile a round of its own, the widest cheapest a column */
    assert_int_equal(chosen_tile_n(4096, 4096, 1), 256);
    /* one tile row and column: one round at every width, the narrowest's 64 x 176 % the least */
    assert_int_equal(chosen_tile_n(128, 128, 132), 64);
}

/* taller_tiles' tile by the same reckoning, 192 x 128 (cost 106 %, measured on an H200) beside chosen_tiles' three,
 * worked out by hand at every multiple of 512 from 1024 to 8192: each tile's count, rounds and time (rounds x rows
 * x columns x cost / 128, the units above); the least time wins, the larger tile on a tie. */
static void a_tall_tile_is_taken_where_its_rounds_take_least_time(void **state)
{
    (void)state;
    static const struct {
        int width, bm, bn;
    } chosen[] = {
        /* 128 x 256: 72 tiles, 1 round, 25,600; 192 x 128: 96, 1, 20,352; 128 x 128: 144, 2, 27,392 */
        {1536, 192, 128},
        /* 288, 3, 76,800; 384, 3, 61,056; 576, 5, 68,480 */
        {3072, 192, 128},
        /* 968, 8, 204,800; 1320, 10, 203,520; 1936, 15, 205,440 */
        {5632, 192, 128},
        /* 800, 7, 179,200; 1080, 9, 183,168; 1600, 13, 178,048: chosen_tiles' 128 x 128 */
        {5120, 128, 128},
        /* 1352, 11, 281,600; 1820, 14, 284,928 */
        {6656, 128, 256},
        /* 2048, 16, 409,600; 2752, 21, 427,392 */
        {8192, 128, 256},
        /* 32, 1, 25,600; 48, 1, 20,352; 64, 1, 13,696; 128 x 64: 128, 1, 11,264 */
        {1024, 128, 64},
        /* whole rounds of the wide tile: 2048, 128 tiles in 1 round, 25,600, against 176 of 192 x 128 in 2, 40,704;
         * the others likewise */
        {2048, 128, 256}, {2560, 128, 256}, {3584, 128, 256}, {4096, 128, 256}, {4608, 128, 256}, {6144, 128, 256},
        {7168, 128, 256}, {7680, 128, 256},
    };
    for (size_t i = 0; i < sizeof chosen / sizeof *chosen; ++i) {
        const struct ws_tile t = taller_tile(chosen[i].width, chosen[i].width, 132);
        if (t.bm != chosen[i].bm || t.bn != chosen[i].bn)
            fail_msg("W = %d: %d x %d, not %d x %d", chosen[i].width, t.bm, t.bn, chosen[i].bm, chosen[i].bn);
    }
    /* where a tile of 128 rows is taken, it is chosen_tiles' */
    for (int w = 8; w <= 8192; w += 8) {
        const struct ws_tile t = taller_tile(w, w, 132);
        assert_true(t.bm == TT_TALL_BM || t.bn == chosen_tile_n(w, w, 132));
    }
}

/* wider_tiles' tile by the same reckoning, 128 x 320 (cost 100 %, measured on an H200) beside taller_tiles' four,
 * worked out by hand at every multiple of 512 from 1024 to 8192: the wide tile's count, rounds and time in the
 * units above (rounds x 320 x 100) against the best of the others'; the least time wins, the wide tile on a tie. */
static void a_wide_tile_is_taken_where_its_rounds_take_least_time(void **state)
{
    (void)state;
    static const int wide[] = {
        5120, /* 640 tiles, 5 rounds, 160,000; 128 x 128: 1600, 13, 178,048 */
        5632, /* 792, 6, 192,000; 192 x 128: 1320, 10, 203,520 */
        7680, /* 1440, 11, 352,000; 128 x 256: 1800, 14, 358,400 */
    };
    static const int not_wide[] = {
        1024, /* 32, 1, 32,000; 128 x 64: 128, 1, 11,264 */
        1536, /* 60, 1, 32,000; 192 x 128: 96, 1, 20,352 */
        2048, /* 112, 1, 32,000; 128 x 256: 128, 1, 25,600 */
        3072, /* 240, 2, 64,000; 192 x 128: 384, 3, 61,056 */
        6144, /* 960, 8, 256,000; 128 x 256: 1152, 9, 230,400 */
        6656, /* 1092, 9, 288,000; 1352, 11, 281,600 */
        7168, /* 1288, 10, 320,000; 1568, 12, 307,200 */
        8192, /* 1664, 13, 416,000; 2048, 16, 409,600 */
        2560, 3584, 4096, 4608, /* the same rounds as 128 x 256's: 2, 3, 4 and 5 */
    };
    for (size_t i = 0; i < sizeof wide / sizeof *wide; ++i) {
        const struct ws_tile t = wider_tile(wide[i], wide[i], 132);
        if (t.bm != WS_BM || t.bn != WT_WIDE_BN)
            fail_msg("W = %d: %d x %d, not 128 x 320", wide[i], t.bm, t.bn);
    }
    for (size_t i = 0; i < sizeof not_wide / sizeof *not_wide; ++i)
        assert_int_not_equal(wider_tile(not_wide[i], not_wide[i], 132).bn, WT_WIDE_BN);
    /* where another tile is taken, it is taller_tiles' */
    for (int w = 8; w <= 8192; w += 8) {
        const struct ws_tile t = wider_tile(w, w, 132), u = taller_tile(w, w, 132);
        assert_true(t.bn == WT_WIDE_BN || (t.bm == u.bm && t.bn == u.bn));
    }
    /* one SM, W = 3840 (12 x 320): every tile a round of its own, 360 of 128 x 320 and 450 of 128 x 256 cover the
     * same outputs at the same cost, 11,520,000 either way: the wide tile on the tie */
    assert_int_equal(wider_tile(3840, 3840, 1).bn, WT_WIDE_BN);
}

/* fitted_tiles' tile by the same reckoning, 144 x 128 (cost 106 %, measured on an H200) beside wider_tiles' five,
 * worked out by hand in the units above (rounds x rows x columns x cost / 128): taken at 1536 (132 tiles, one round,
 * 15,264; 192 x 128: 96, 1, 20,352) and 2560 (360, 3, 45,792; 128 x 256: 200, 2, 51,200); not at 3072 (528, 4,
 * 61,056, tied with 192 x 128's 384, 3, 61,056: the larger tile on a tie) nor at the other multiples of 512 to 8192;
 * and at 1533 x 1528, the rows and columns of its tiles part full (11 x 12 tiles, one round). */
static void a_fitted_tile_is_taken_where_its_rounds_take_least_time(void **state)
{
    (void)state;
    assert_int_equal(fitted_tile(1536, 1536, 132).bm, FT_ROWS);
    assert_int_equal(fitted_tile(2560, 2560, 132).bm, FT_ROWS);
    assert_int_equal(fitted_tile(1533, 1528, 132).bm, FT_ROWS);
    for (int w = 1024; w <= 8192; w += 512)
        if (w != 1536 && w != 2560 && fitted_tile(w, w, 132).bm == FT_ROWS)
            fail_msg("W = %d takes 144 x 128", w);
    const struct ws_tile tall = fitted_tile(3072, 3072, 132);
    assert_true(tall.bm == TT_TALL_BM && tall.bn == 128);
    /* where another tile is taken, it is wider_tiles' */
    for (int w = 8; w <= 8192; w += 8) {
        const struct ws_tile t = fitted_tile(w, w, 132), u = wider_tile(w, w, 132);
        assert_true(t.bm == FT_ROWS || (t.bm == u.bm && t.bn == u.bn));
    }
}

/* square_tiles' tile by the same reckoning, 192 x 192 (cost 102 %, chosen between two shapes' costs measured on an
 * H200) beside fitted_tiles' six, worked out by hand in the units above: taken at 3072 (256 tiles, 2 rounds, 58,752;
 * 192 x 128: 384, 3, 61,056; 128 x 256: 288, 3, 76,800), not at 6144 (1024, 8, 235,008; 128 x 256: 1152, 9, 230,400)
 * nor at the other multiples of 512 to 8192; at 2056 and 2056 x 2000, the last row and column of tiles part full
 * (121 tiles, one round, 29,376; 144 x 128: 255 and 240 tiles, 2 rounds, 30,528; 128 x 320: 119, 1, 32,000), and at
 * 4104 (484, 4, 117,504; 192 x 128 and 144 x 128: 122,112; 128 x 320 and 128 x 256: 128,000). Its stores are never
 * overlapped (its registers hold no pairs). */
static void a_square_tile_is_taken_where_its_rounds_take_least_time(void **state)
{
    (void)state;
    static const int square[][2] = {{3072, 3072}, {2056, 2056}, {4104, 4104}, {2056, 2000}};
    for (size_t i = 0; i < sizeof square / sizeof *square; ++i) {
        const struct ws_tile t = square_tile(square[i][0], square[i][1], 132);
        if (t.bm != SQ_SIDE || t.bn != SQ_SIDE)
            fail_msg("%d x %d: %d x %d, not 192 x 192", square[i][0], square[i][1], t.bm, t.bn);
        assert_false(overlaps_stores(t, square[i][0], square[i][1], 132));
    }
    for (int w = 1024; w <= 8192; w += 512)
        if (w != 3072 && square_tile(w, w, 132).bn == SQ_SIDE)
            fail_msg("W = %d takes 192 x 192", w);
    /* where another tile is taken, it is fitted_tiles' */
    for (int w = 8; w <= 8192; w += 8) {
        const struct ws_tile t = square_tile(w, w, 132), u = fitted_tile(w, w, 132);
        assert_true(t.bn == SQ_SIDE || (t.bm == u.bm && t.bn == u.bn));
    }
}

/* short_tiles' tile by the same reckoning, 64 x 128 (cost 150 %) and 64 x 64 (250 %) beside square_tiles' seven,
 * worked out by hand as rounds x rows x columns x cost: 64 x 4096, 128 x 64: 64 tiles in 1 round, 1,441,792; 64 x 128:
 * 32, 1, 1,228,800; 64 x 64: 64, 1, 1,024,000. 128 x 4096: 64, 1, 1,441,792; 64, 1, 1,228,800; 128, 1, 1,024,000.
 * 512 x 512: 32, 1, 1,441,792; 32, 1, 1,228,800; 64, 1, 1,024,000. 256 x 4096: 128, 1, 1,441,792; 128, 1, 1,228,800;
 * 256, 2, 2,048,000; 128 x 128: 64, 1, 1,753,088. 1024 x 1024: as 256 x 4096. Not at 512 x 4096 (128 x 128: 128
 * tiles, 1,753,088; 64 x 128: 256, 2, 2,457,600) nor at 2048 (128 x 256: 128, 3,276,800; 64 x 128: 512, 4,
 * 4,915,200); of the multiples of 512 only at 512 and 1024. */
static void a_short_tile_is_taken_where_its_rounds_take_least_time(void **state)
{
    (void)state;
    static const struct {
        int m, n, bn;
    } cases[] = {{64, 4096, 64}, {128, 4096, 64}, {512, 512, 64}, {256, 4096, 128}, {1024, 1024, 128}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        const struct ws_tile t = short_tile(cases[i].m, cases[i].n, 132);
        if (t.bm != SH_ROWS || t.bn != cases[i].bn)
            fail_msg("%d x %d: %d x %d, not 64 x %d", cases[i].m, cases[i].n, t.bm, t.bn, cases[i].bn);
    }
    const struct ws_tile wide = short_tile(512, 4096, 132);
    assert_true(wide.bm == WS_BM && wide.bn == 128);
    for (int w = 1536; w <= 8192; w += 512)
        if (short_tile(w, w, 132).bm == SH_ROWS)
            fail_msg("W = %d takes a short tile", w);
    /* where another tile is taken, it is square_tiles' */
    for (int w = 8; w <= 8192; w += 8) {
        const struct ws_tile t = short_tile(w, w, 132), u = square_tile(w, w, 132);
        assert_true(t.bm == SH_ROWS || (t.bm == u.bm && t.bn == u.bn));
    }
}

/* The rules take P's rows and columns (m x n): rectangles by the same reckoning, worked out by hand in the units
 * above (rounds x rows x columns x cost / 128). A transformer block's GEMMs at 8192 tokens take 128 x 256; and a
 * rectangle is not its transpose, since the tall tile's rows are not its columns. */
static void a_rectangle_takes_the_tile_of_its_rows_and_columns(void **state)
{
    (void)state;
    static const struct {
        int m, n, bm, bn;
    } cases[] = {
        /* 128 x 256: 768 tiles, 6 rounds, 153,600; 128 x 320: 640, 5, 160,000; 192 x 128: 1032, 8, 162,816 */
        {8192, 3072, 128, 256},
        /* 256, 2, 51,200; 128 x 128: 512, 4, 54,784; 192 x 128: 344, 3, 61,056 */
        {8192, 1024, 128, 256},
        /* 1024, 8, 204,800; 128 x 128: 2048, 16, 219,136; 192 x 128: 1376, 11, 223,872 */
        {8192, 4096, 128, 256},
        /* 192 x 128: 16 x 8 = 128 tiles, 1 round, 20,352; 128 x 256: 96, 1, 25,600 */
        {3072, 1024, 192, 128},
        /* its transpose: 192 x 128 is 6 x 24 = 144 tiles, 2 rounds, 40,704; 128 x 256: 96, 1, 25,600 */
        {1024, 3072, 128, 256},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        const struct ws_tile t = wider_tile(cases[i].m, cases[i].n, 132);
        if (t.bm != cases[i].bm || t.bn != cases[i].bn)
            fail_msg("%d x %d: %d x %d, not %d x %d", cases[i].m, cases[i].n, t.bm, t.bn, cases[i].bm, cases[i].bn);
    }
}

/* overlapped_stores' rule in wider_tiles' tile, the tile it runs. */
static int overlaps_in_wider_tile(int m, int n, int sms)
{
    return overlaps_stores(wider_tile(m, n, sms), m, n, sms);
}

/* overlapped_stores overlaps where a block takes two tiles or more in a tile other than 128 x 320, worked out by hand
 * on 132 SMs from the tiles of the test above: 1024 (128 tiles of 128 x 64), 1536 (96 of 192 x 128) and 2048 (128 of
 * 128 x 256) take one round; 5120, 5632 and 7680 the wide tile; the other multiples of 512 two rounds or more
 * (2560: 200 tiles of 128 x 256; 3072: 384 of 192 x 128); and the transformer block's GEMMs at 8192 tokens (8192 x
 * 1024: 256 tiles of 128 x 256, two rounds). */
static void stores_overlap_where_a_block_takes_two_tiles(void **state)
{
    (void)state;
    static const int one_round_or_wide[] = {1024, 1536, 2048, 5120, 5632, 7680};
    static const int several_rounds[] = {2560, 3072, 3584, 4096, 4608, 6144, 6656, 7168, 8192};
    for (size_t i = 0; i < sizeof one_round_or_wide / sizeof *one_round_or_wide; ++i)
        if (overlaps_in_wider_tile(one_round_or_wide[i], one_round_or_wide[i], 132))
            fail_msg("W = %d overlaps", one_round_or_wide[i]);
    for (size_t i = 0; i < sizeof several_rounds / sizeof *several_rounds; ++i)
        if (!overlaps_in_wider_tile(several_rounds[i], several_rounds[i], 132))
            fail_msg("W = %d does not overlap", several_rounds[i]);
    assert_true(overlaps_in_wider_tile(8192, 3072, 132) && overlaps_in_wider_tile(8192, 1024, 132) &&
                overlaps_in_wider_tile(8192, 4096, 132));
    assert_false(overlaps_in_wider_tile(1000, 264, 132)); /* 40 tiles of 128 x 64 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_shape_takes_the_tile_whose_rounds_take_least_time),
        cmocka_unit_test(a_tall_tile_is_taken_where_its_rounds_take_least_time),
        cmocka_unit_test(a_wide_tile_is_taken_where_its_rounds_take_least_time),
        cmocka_unit_test(a_fitted_tile_is_taken_where_its_rounds_take_least_time),
        cmocka_unit_test(a_square_tile_is_taken_where_its_rounds_take_least_time),
        cmocka_unit_test(a_short_tile_is_taken_where_its_rounds_take_least_time),
        cmocka_unit_test(stores_overlap_where_a_block_takes_two_tiles),
        cmocka_unit_test(a_rectangle_takes_the_tile_of_its_rows_and_columns),
        cmocka_unit_test(the_ladder_widths_on_an_h100),
        cmocka_unit_test(never_a_round_more_than_one_block_per_sm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
