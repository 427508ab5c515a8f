/* The variant registry: names, launch shapes, the FP32 ladder, grid cover and the work model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../kernels/matmul.h"

static const char *const required_names[] = {
    "naive", "naive_uncoalesced", "tiled_16", "tiled_32",
    "tiled_corner_turning", "tiled_transposed", "tiled_transposed_padded", "cublas",
    "naive_fp64", "tiled_32_fp64", "colmajor_padded_fp64", "cublas_fp64",
};

static const struct matmul_variant *must_find(const char *name)
{
    const struct matmul_variant *v = matmul_find(name);
    if (!v)
        fail_msg("variant %s is missing from the registry", name);
    return v;
}

static void names_are_lowercase_identifiers(void **state)
{
    (void)state;
    size_t count;
    const struct matmul_variant *v = matmul_variants(&count);
    for (size_t i = 0; i < count; ++i) {
        assert_non_null(v[i].name);
        assert_true(v[i].name[0] != '\0');
        assert_int_equal(strspn(v[i].name, "abcdefghijklmnopqrstuvwxyz0123456789_"), strlen(v[i].name));
    }
}

static void names_are_unique(void **state)
{
    (void)state;
    size_t count;
    const struct matmul_variant *v = matmul_variants(&count);
    for (size_t i = 0; i < count; ++i)
        for (size_t j = i + 1; j < count; ++j)
            assert_string_not_equal(v[i].name, v[j].name);
}

static void every_variant_has_description_and_launcher(void **state)
{
    (void)state;
    size_t count;
    const struct matmul_variant *v = matmul_variants(&count);
    for (size_t i = 0; i < count; ++i) {
        assert_non_null(v[i].description);
        assert_true(v[i].description[0] != '\0');
        assert_non_null(v[i].launch);
    }
}

static void kernel_variants_have_valid_launch_shape(void **state)
{
    (void)state;
    size_t count;
    const struct matmul_variant *v = matmul_variants(&count);
    for (size_t i = 0; i < count; ++i) {
        if (v[i].block_x == 0)
            continue;
        assert_true(v[i].block_y > 0);
        assert_true(v[i].block_x * v[i].block_y <= 1024);
        assert_true(v[i].tile_x > 0);
        assert_true(v[i].tile_y > 0);
    }
}

/* The harness asks the device about every kernel it launches itself; a library picks its own. */
static void kernel_variants_name_their_kernel_and_library_ones_none(void **state)
{
    (void)state;
    size_t count;
    const struct matmul_variant *v = matmul_variants(&count);
    for (size_t i = 0; i < count; ++i)
        if ((v[i].block_x > 0) != (v[i].kernel != NULL))
            fail_msg("%s: block %ux%u but %s kernel accessor", v[i].name, v[i].block_x, v[i].block_y,
                     v[i].kernel ? "a" : "no");
}

static void find_returns_each_registered_variant(void **state)
{
    (void)state;
    size_t count;
    const struct matmul_variant *v = matmul_variants(&count);
    for (size_t i = 0; i < count; ++i)
        assert_ptr_equal(matmul_find(v[i].name), &v[i]);
}

static void find_returns_null_for_unknown_name(void **state)
{
    (void)state;
    assert_null(matmul_find("no_such_variant"));
    assert_null(matmul_find(""));
    assert_null(matmul_find("Naive"));
}

static void registry_holds_required_variants(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof required_names / sizeof required_names[0]; ++i)
        assert_string_equal(must_find(required_names[i])->name, required_names[i]);
}

/* The FP32 ladder is the table's rows marked on it, numbered 1, 2, ... in table order; an FP64 row on it would put
 * a double-precision kernel among the FP32 steps of the report's ladder page. */
static void ladder_steps_count_up_from_one_over_fp32_variants(void **state)
{
    (void)state;
    size_t count;
    const struct matmul_variant *v = matmul_variants(&count);
    int last = 0;
    for (size_t i = 0; i < count; ++i) {
        int step = matmul_ladder_step(v[i].name);
        if (step == 0)
            continue;
        if (step != last + 1)
            fail_msg("%s: ladder step %d after step %d", v[i].name, step, last);
        if (v[i].precision != MATMUL_FP32)
            fail_msg("%s: on the FP32 ladder but %s", v[i].name, matmul_precision_name(v[i].precision));
        last = step;
    }
    assert_int_equal(matmul_ladder_step("naive"), 1);
    assert_int_equal(matmul_ladder_step("cublas"), last);
    assert_int_equal(matmul_ladder_step("no_such_variant"), 0);
}

/* small_tiles, split_k and spread_copies are the rungs after icache_fit, in that order, the last before cuBLAS: the
 * ladder page shows them between. */
static void the_rungs_after_icache_fit_come_in_order_before_cublas(void **state)
{
    (void)state;
    int step = matmul_ladder_step(must_find("small_tiles")->name);
    assert_int_equal(step, matmul_ladder_step("icache_fit") + 1);
    assert_int_equal(matmul_ladder_step(must_find("split_k")->name), step + 1);
    assert_int_equal(matmul_ladder_step(must_find("spread_copies")->name), step + 2);
    assert_int_equal(matmul_ladder_step("cublas"), step + 3);
}

/* Its idea: at W = 1024 its grid gives the H100's 132 SMs at least 128 blocks, where icache_fit's 128x256 tiles
 * give 32. (Its correctness at W = 1, 2, 33, 100, 1000, 1024 and 4097: tests/run/test_matmul_gpu.c, which checks
 * every row of the registry at those widths.) */
static void small_tiles_fill_the_sms_at_1024(void **state)
{
    (void)state;
    dim3 small = matmul_grid(must_find("small_tiles"), matmul_square(1024));
    dim3 large = matmul_grid(must_find("icache_fit"), matmul_square(1024));
    assert_true(small.x * small.y >= 128);
    assert_int_equal(large.x * large.y, 32);
}

static void cublas_variants_have_their_precision(void **state)
{
    (void)state;
    assert_int_equal(must_find("cublas")->precision, MATMUL_FP32);
    assert_int_equal(must_find("cublas_fp64")->precision, MATMUL_FP64);
    assert_int_equal(must_find("cublas_bf16")->precision, MATMUL_BF16);
    assert_int_equal(must_find("cublas_fp16")->precision, MATMUL_FP16);
    assert_int_equal(must_find("cublas_tf32")->precision, MATMUL_TF32);
    assert_string_equal(matmul_precision_name(MATMUL_BF16), "bf16");
    assert_string_equal(matmul_precision_name(MATMUL_FP16), "fp16");
    assert_string_equal(matmul_precision_name(MATMUL_TF32), "tf32");
    /* 3 x W^2 elements of 2 bytes (bf16, fp16) or 4 (tf32, stored as float) */
    assert_true(matmul_min_bytes(must_find("cublas_bf16"), matmul_square(10)) == 600.0);
    assert_true(matmul_min_bytes(must_find("cublas_tf32"), matmul_square(10)) == 1200.0);
}

static void layouts_of_special_variants(void **state)
{
    (void)state;
    assert_int_equal(must_find("tiled_corner_turning")->layout, MATMUL_N_COL_MAJOR);
    assert_int_equal(must_find("colmajor_padded_fp64")->layout, MATMUL_COL_MAJOR);
    assert_int_equal(must_find("naive")->layout, MATMUL_ROW_MAJOR);
}

static void grid_covers_width_with_tiles_of_32(void **state)
{
    (void)state;
    const struct matmul_variant *v = must_find("tiled_32");
    assert_int_equal(v->tile_x, 32);
    assert_int_equal(v->tile_y, 32);
    /* ceil(W / 32): 33 needs a second block for its last column, 64 fills two exactly. */
    const int widths[] = {1, 32, 33, 64, 65};
    const unsigned blocks[] = {1, 1, 2, 2, 3};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; ++i) {
        dim3 grid = matmul_grid(v, matmul_square(widths[i]));
        assert_int_equal(grid.x, blocks[i]);
        assert_int_equal(grid.y, blocks[i]);
        assert_int_equal(grid.z, 1);
    }
}

static void grid_covers_width_with_tiles_of_16(void **state)
{
    (void)state;
    dim3 grid = matmul_grid(must_find("tiled_16"), matmul_square(33)); /* ceil(33 / 16) = 3 */
    assert_int_equal(grid.x, 3);
    assert_int_equal(grid.y, 3);
}

/* A grid covers P: grid x its 33 columns (3 blocks of 16), grid y its 100 rows (7); the inner 5 takes no block. */
static void grid_covers_the_columns_along_x_and_the_rows_along_y(void **state)
{
    (void)state;
    dim3 grid = matmul_grid(must_find("tiled_16"), (struct matmul_shape){.rows = 100, .cols = 33, .inner = 5});
    assert_int_equal(grid.x, 3);
    assert_int_equal(grid.y, 7);
    assert_int_equal(grid.z, 1);
}

static void tiled_16_block_is_16_by_16(void **state)
{
    (void)state;
    const struct matmul_variant *v = must_find("tiled_16");
    dim3 block = matmul_block(v);
    assert_int_equal(block.x, 16);
    assert_int_equal(block.y, 16);
    assert_int_equal(block.z, 1);
}

static void flop_is_two_width_cubed(void **state)
{
    (void)state;
    assert_true(matmul_flop(matmul_square(3)) == 54.0); /* 2 * 3^3 */
    assert_true(matmul_flop(matmul_square(1)) == 2.0);
    assert_true(matmul_flop(matmul_square(46340)) == 2.0 * 46340.0 * 46340.0 * 46340.0);
    /* a transformer's projection, 8192 x 3072 x 1024: 2 * 8192 * 3072 * 1024 = 51,539,607,552 */
    assert_true(matmul_flop((struct matmul_shape){8192, 3072, 1024}) == 51539607552.0);
}

static void min_bytes_counts_three_matrices(void **state)
{
    (void)state;
    /* 3 matrices * 10 * 10 elements * 4 or 8 bytes */
    assert_true(matmul_min_bytes(must_find("naive"), matmul_square(10)) == 1200.0);
    assert_true(matmul_min_bytes(must_find("naive_fp64"), matmul_square(10)) == 2400.0);
    /* M 2 x 3, N 3 x 5, P 2 x 5: 6 + 15 + 10 = 31 bf16 elements */
    assert_true(matmul_min_bytes(must_find("cublas_bf16"), (struct matmul_shape){2, 5, 3}) == 62.0);
}

/* A refusal is read past its prefix; an error or NULL (enqueued) is none. */
static void a_refusal_is_the_reason_past_its_prefix(void **state)
{
    (void)state;
    assert_string_equal(matmul_refusal(MATMUL_REFUSED_NOT_SQUARE),
                        "square products only (the kernel indexes M, N and P by one width)");
    assert_null(matmul_refusal("invalid argument"));
    assert_null(matmul_refusal(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_are_lowercase_identifiers),
        cmocka_unit_test(grid_covers_the_columns_along_x_and_the_rows_along_y),
        cmocka_unit_test(a_refusal_is_the_reason_past_its_prefix),
        cmocka_unit_test(names_are_unique),
        cmocka_unit_test(every_variant_has_description_and_launcher),
        cmocka_unit_test(kernel_variants_have_valid_launch_shape),
        cmocka_unit_test(kernel_variants_name_their_kernel_and_library_ones_none),
        cmocka_unit_test(find_returns_each_registered_variant),
        cmocka_unit_test(find_returns_null_for_unknown_name),
        cmocka_unit_test(registry_holds_required_variants),
        cmocka_unit_test(ladder_steps_count_up_from_one_over_fp32_variants),
        cmocka_unit_test(the_rungs_after_icache_fit_come_in_order_before_cublas),
        cmocka_unit_test(small_tiles_fill_the_sms_at_1024),
        cmocka_unit_test(cublas_variants_have_their_precision),
        cmocka_unit_test(layouts_of_special_variants),
        cmocka_unit_test(grid_covers_width_with_tiles_of_32),
        cmocka_unit_test(grid_covers_width_with_tiles_of_16),
        cmocka_unit_test(tiled_16_block_is_16_by_16),
        cmocka_unit_test(flop_is_two_width_cubed),
        cmocka_unit_test(min_bytes_counts_three_matrices),
    };
    return cmocka_run_group_tests_name("registry", tests, NULL, NULL);
}
