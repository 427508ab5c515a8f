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
 * from 1024 to 8192 (tiles of 128 rows; rounds of the wide 128 x 256 tiles and of the narrow 128 x 128, and the
 * columns' time each takes, rounds x columns): narrow where it takes strictly less. */
static void the_narrow_tile_where_its_rounds_take_less_time(void **state)
{
    (void)state;
    /* width, wide tiles -> rounds (time), narrow tiles -> rounds (time): the tile */
    static const int narrow_widths[] = {
        1024, /* 32 -> 1 (256), 64 -> 1 (128) */
        3072, /* 288 -> 3 (768), 576 -> 5 (640) */
        5120, /* 800 -> 7 (1792), 1600 -> 13 (1664) */
        5632, /* 968 -> 8 (2048), 1936 -> 15 (1920) */
        6656, /* 1352 -> 11 (2816), 2704 -> 21 (2688) */
    };
    static const int wide_widths[] = {
        1536, /* 72 -> 1 (256), 144 -> 2 (256): a tie */
        2048, 2560, 3584, 4096, 4608, 6144, 7168, 7680, 8192, /* ties: 128 -> 1 / 256 -> 2, 200 / 400: 2 / 4, ... */
    };
    for (size_t i = 0; i < sizeof narrow_widths / sizeof *narrow_widths; ++i)
        assert_int_equal(chosen_tile_n(narrow_widths[i], narrow_widths[i], 132), 128);
    for (size_t i = 0; i < sizeof wide_widths / sizeof *wide_widths; ++i)
        assert_int_equal(chosen_tile_n(wide_widths[i], wide_widths[i], 132), 256);
    /* one SM: every tile is a round of its own, as many columns' time either way */
    assert_int_equal(chosen_tile_n(4096, 4096, 1), 256);
    /* a product of one tile row and column fits one round either way: half the time narrow */
    assert_int_equal(chosen_tile_n(128, 128, 132), 128);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_narrow_tile_where_its_rounds_take_less_time),
        cmocka_unit_test(the_ladder_widths_on_an_h100),
        cmocka_unit_test(never_a_round_more_than_one_block_per_sm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
