/* Host operands: random inputs and the conversion to each variant's precision and storage order. */
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/check/operands.h"

#define COUNT 4096
#define WIDTH 7

static double a[COUNT], b[COUNT];

static void assert_in_unit_range(const double *x, size_t count)
{
    for (size_t i = 0; i < count; ++i)
        if (!(x[i] >= -1.0 && x[i] < 1.0))
            fail_msg("element %zu is %.17g, outside [-1, 1)", i, x[i]);
}

static void random_values_lie_in_unit_range(void **state)
{
    (void)state;
    operands_fill_random(a, COUNT, 1, MATMUL_FP64);
    assert_in_unit_range(a, COUNT);
    operands_fill_random(a, COUNT, 1, MATMUL_FP32);
    assert_in_unit_range(a, COUNT);
}

/* splitmix64 is invertible: this seed makes the first draw the largest one, (2^53 - 1) * 2^-53,
 * so the value is 1 - 2^-52. The nearest float to that is 1.0f, which lies outside [-1, 1). */
static void largest_draw_stays_below_one_after_rounding(void **state)
{
    (void)state;
    const uint64_t seed = 0x31628af67b2131abull;
    operands_fill_random(a, 1, seed, MATMUL_FP64);
    assert_true(a[0] == 1.0 - 0x1.0p-52);
    operands_fill_random(a, 1, seed, MATMUL_FP32);
    assert_in_unit_range(a, 1);
}

/* bf16 keeps 8 significant bits, fp16 and tf32 11: every draw is a whole number of 2^-7 or 2^-10, in [-1, 1). */
static void tensor_types_draw_values_they_hold_exactly(void **state)
{
    (void)state;
    static const struct {
        enum matmul_precision precision;
        double step;
    } types[] = {{MATMUL_BF16, 0x1.0p-7}, {MATMUL_FP16, 0x1.0p-10}, {MATMUL_TF32, 0x1.0p-10}};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
        operands_fill_random(a, COUNT, 3, types[t].precision);
        assert_in_unit_range(a, COUNT);
        for (size_t i = 0; i < COUNT; ++i)
            if (a[i] / types[t].step != floor(a[i] / types[t].step))
                fail_msg("%s draw %zu is %.17g, not a multiple of %g", matmul_precision_name(types[t].precision), i,
                         a[i], types[t].step);
    }
}

/* Encodings from the formats' definitions (bf16: a float's top 16 bits; fp16: IEEE binary16). */
static void bf16_encodings_round_to_nearest_even(void **state)
{
    (void)state;
    assert_int_equal(operands_bf16_from_double(1.0), 0x3F80);
    assert_int_equal(operands_bf16_from_double(-0.5), 0xBF00);
    assert_int_equal(operands_bf16_from_double(1.0 + 0x1.0p-8), 0x3F80);       /* a tie: to the even 1.0 */
    assert_int_equal(operands_bf16_from_double(1.0 + 3 * 0x1.0p-8), 0x3F82);   /* a tie: to the even 1 + 2^-6 */
    assert_int_equal(operands_bf16_from_double(1.0 + 0x1.8p-8), 0x3F81);       /* above the tie */
    assert_true(operands_double_from_bf16(0x3F81) == 1.0 + 0x1.0p-7);
    assert_true(operands_double_from_bf16(0xC0A0) == -5.0);
    assert_true(isnan(operands_double_from_bf16(operands_bf16_from_double(NAN))));
    assert_true(isnan(operands_double_from_bf16(0xFFFF))); /* the check's poison */
}

static void fp16_encodings_round_to_nearest_even(void **state)
{
    (void)state;
    assert_int_equal(operands_fp16_from_double(1.0), 0x3C00);
    assert_int_equal(operands_fp16_from_double(-2.0), 0xC000);
    assert_int_equal(operands_fp16_from_double(65504.0), 0x7BFF);   /* the largest */
    assert_int_equal(operands_fp16_from_double(65520.0), 0x7C00);   /* rounds to infinity */
    assert_int_equal(operands_fp16_from_double(0x1.0p-14), 0x0400); /* the smallest normal */
    assert_int_equal(operands_fp16_from_double(0x1.0p-24), 0x0001); /* the smallest subnormal */
    assert_int_equal(operands_fp16_from_double(0x1.0p-25), 0x0000); /* a tie: to the even 0 */
    assert_int_equal(operands_fp16_from_double(3 * 0x1.0p-25), 0x0002);
    assert_int_equal(operands_fp16_from_double(1.0 + 0x1.0p-11), 0x3C00);
    assert_int_equal(operands_fp16_from_double(1.0 + 3 * 0x1.0p-11), 0x3C02);
    assert_true(operands_double_from_fp16(0x3555) == 0x1.554p-2);
    assert_true(operands_double_from_fp16(0x8001) == -0x1.0p-24);
    assert_true(operands_double_from_fp16(0xFC00) == -INFINITY);
    assert_true(isnan(operands_double_from_fp16(0xFFFF))); /* the check's poison */
}

/* Drawn values survive packing into each tensor type and back exactly; bf16 and fp16 take 2 bytes an element. */
static void tensor_types_round_trip_exactly(void **state)
{
    (void)state;
    static const enum matmul_precision types[] = {MATMUL_BF16, MATMUL_FP16, MATMUL_TF32};
    uint16_t halves[WIDTH * WIDTH + 1];
    float floats[WIDTH * WIDTH];
    for (size_t t = 0; t < 3; ++t) {
        void *stored = types[t] == MATMUL_TF32 ? (void *)floats : (void *)halves;
        operands_fill_random(a, WIDTH * WIDTH, 11, types[t]);
        halves[WIDTH * WIDTH] = 0xABCD;
        operands_pack(a, stored, WIDTH, WIDTH, types[t], t == 1);
        assert_int_equal(halves[WIDTH * WIDTH], 0xABCD); /* nothing written past 2 bytes an element */
        operands_unpack(stored, b, WIDTH, WIDTH, types[t], t == 1);
        assert_memory_equal(a, b, WIDTH * WIDTH * sizeof(double));
    }
    assert_int_equal(matmul_element_size(MATMUL_BF16), 2);
    assert_int_equal(matmul_element_size(MATMUL_FP16), 2);
    assert_int_equal(matmul_element_size(MATMUL_TF32), 4);
}

static void random_values_are_spread(void **state)
{
    (void)state;
    operands_fill_random(a, COUNT, 1, MATMUL_FP64);
    double lo = a[0], hi = a[0];
    int negative = 0;
    for (size_t i = 0; i < COUNT; ++i) {
        lo = a[i] < lo ? a[i] : lo;
        hi = a[i] > hi ? a[i] : hi;
        negative += a[i] < 0;
    }
    assert_true(lo < -0.9);
    assert_true(hi > 0.9);
    /* 4096 fair draws: 2048 negative on average, standard deviation 32. */
    assert_in_range(negative, 2048 - 320, 2048 + 320);
}

static void same_seed_reproduces_values(void **state)
{
    (void)state;
    operands_fill_random(a, COUNT, 42, MATMUL_FP64);
    operands_fill_random(b, COUNT, 42, MATMUL_FP64);
    assert_memory_equal(a, b, sizeof a);
}

static void other_seed_gives_other_values(void **state)
{
    (void)state;
    operands_fill_random(a, COUNT, 42, MATMUL_FP64);
    operands_fill_random(b, COUNT, 43, MATMUL_FP64);
    size_t equal = 0;
    for (size_t i = 0; i < COUNT; ++i)
        equal += a[i] == b[i];
    assert_int_equal(equal, 0);
}

static void fp32_values_are_exact_floats(void **state)
{
    (void)state;
    operands_fill_random(a, COUNT, 7, MATMUL_FP32);
    for (size_t i = 0; i < COUNT; ++i)
        assert_true((double)(float)a[i] == a[i]);
}

/* 2u - 1 with u drawn from 24 bits: every value is a whole multiple of 2^-23. */
static void fp32_values_lie_on_the_float_grid(void **state)
{
    (void)state;
    operands_fill_random(b, COUNT, 7, MATMUL_FP32);
    for (size_t i = 0; i < COUNT; ++i) {
        double steps = b[i] * 8388608.0;
        assert_true(steps == (double)(long long)steps);
    }
}

static void column_major_per_layout_and_operand(void **state)
{
    (void)state;
    assert_false(operands_column_major(MATMUL_ROW_MAJOR, OPERAND_M));
    assert_false(operands_column_major(MATMUL_ROW_MAJOR, OPERAND_N));
    assert_false(operands_column_major(MATMUL_ROW_MAJOR, OPERAND_P));
    assert_false(operands_column_major(MATMUL_N_COL_MAJOR, OPERAND_M));
    assert_true(operands_column_major(MATMUL_N_COL_MAJOR, OPERAND_N));
    assert_false(operands_column_major(MATMUL_N_COL_MAJOR, OPERAND_P));
    assert_true(operands_column_major(MATMUL_COL_MAJOR, OPERAND_M));
    assert_true(operands_column_major(MATMUL_COL_MAJOR, OPERAND_N));
    assert_true(operands_column_major(MATMUL_COL_MAJOR, OPERAND_P));
}

/* Fills and packs of more than a million elements are split among threads (on a machine of 2 cores or more, as CI's):
 * the split must not show. Two large fills split at other places agree on their common elements, and both agree with
 * a small fill, which one thread draws. */
#define LARGE_COUNT ((3u << 20) + 7u)
#define LESS_LARGE_COUNT ((2u << 20) + 3u)

static void a_fill_split_among_threads_draws_what_one_thread_does(void **state)
{
    (void)state;
    double *large = malloc(LARGE_COUNT * sizeof *large), *less = malloc(LESS_LARGE_COUNT * sizeof *less);
    assert_non_null(large);
    assert_non_null(less);
    operands_fill_random(large, LARGE_COUNT, 42, MATMUL_FP64);
    operands_fill_random(less, LESS_LARGE_COUNT, 42, MATMUL_FP64);
    operands_fill_random(a, COUNT, 42, MATMUL_FP64);
    assert_memory_equal(large, less, LESS_LARGE_COUNT * sizeof *less);
    assert_memory_equal(large, a, sizeof a);
    free(large);
    free(less);
}

/* A 1500 x 1001 matrix, packed column-major by threads a run of rows each: every element at its transposed place,
 * the last row's too, and back unchanged. */
static void a_pack_split_among_threads_puts_every_row_in_place(void **state)
{
    (void)state;
    const int rows = 1500, cols = 1001;
    const size_t count = (size_t)rows * cols;
    double *logical = malloc(count * sizeof *logical), *back = malloc(count * sizeof *back);
    float *stored = malloc(count * sizeof *stored);
    assert_non_null(logical);
    assert_non_null(back);
    assert_non_null(stored);
    operands_fill_random(logical, count, 7, MATMUL_FP32);
    operands_pack(logical, stored, rows, cols, MATMUL_FP32, true);
    for (int r = 0; r < rows; r += rows / 10)
        assert_true(stored[(size_t)(cols - 1) * rows + r] == (float)logical[(size_t)r * cols + cols - 1]);
    assert_true(stored[count - 1] == (float)logical[count - 1]);
    operands_unpack(stored, back, rows, cols, MATMUL_FP32, true);
    assert_memory_equal(back, logical, count * sizeof *back);
    free(logical);
    free(back);
    free(stored);
}

static void pack_column_major_transposes(void **state)
{
    (void)state;
    const double logical[] = {1, 2, 3, 4};
    double stored64[4];
    float stored32[4];
    operands_pack(logical, stored64, 2, 2, MATMUL_FP64, true);
    assert_memory_equal(stored64, ((const double[]){1, 3, 2, 4}), sizeof stored64);
    operands_pack(logical, stored32, 2, 2, MATMUL_FP32, true);
    assert_memory_equal(stored32, ((const float[]){1, 3, 2, 4}), sizeof stored32);
}

/* A 2 x 3 matrix [1 2 3; 4 5 6]: column-major, its columns one after another (leading dimension 2 rows). */
static void pack_column_major_of_a_wide_matrix_walks_its_columns(void **state)
{
    (void)state;
    const double logical[] = {1, 2, 3, 4, 5, 6};
    double stored[6], back[6];
    operands_pack(logical, stored, 2, 3, MATMUL_FP64, true);
    assert_memory_equal(stored, ((const double[]){1, 4, 2, 5, 3, 6}), sizeof stored);
    operands_unpack(stored, back, 2, 3, MATMUL_FP64, true);
    assert_memory_equal(back, logical, sizeof back);
    operands_pack(logical, stored, 2, 3, MATMUL_FP64, false);
    assert_memory_equal(stored, logical, sizeof stored);
}

static void pack_row_major_keeps_order(void **state)
{
    (void)state;
    const double logical[] = {1, 2, 3, 4};
    float stored[4];
    operands_pack(logical, stored, 2, 2, MATMUL_FP32, false);
    assert_memory_equal(stored, ((const float[]){1, 2, 3, 4}), sizeof stored);
}

static void assert_round_trip(enum matmul_precision precision, bool column_major)
{
    double stored[WIDTH * WIDTH]; /* large enough for either precision */
    operands_fill_random(a, WIDTH * WIDTH, 3, precision);
    memset(b, 0, sizeof b);
    operands_pack(a, stored, WIDTH, WIDTH, precision, column_major);
    operands_unpack(stored, b, WIDTH, WIDTH, precision, column_major);
    assert_memory_equal(a, b, WIDTH * WIDTH * sizeof a[0]);
}

static void round_trip_fp32_row_major(void **state)
{
    (void)state;
    assert_round_trip(MATMUL_FP32, false);
}

static void round_trip_fp32_column_major(void **state)
{
    (void)state;
    assert_round_trip(MATMUL_FP32, true);
}

static void round_trip_fp64_row_major(void **state)
{
    (void)state;
    assert_round_trip(MATMUL_FP64, false);
}

static void round_trip_fp64_column_major(void **state)
{
    (void)state;
    assert_round_trip(MATMUL_FP64, true);
}

static void column_major_element_lands_at_transposed_index(void **state)
{
    (void)state;
    operands_fill_random(a, WIDTH * WIDTH, 5, MATMUL_FP64);
    double stored[WIDTH * WIDTH];
    operands_pack(a, stored, WIDTH, WIDTH, MATMUL_FP64, true);
    for (int r = 0; r < WIDTH; ++r)
        for (int c = 0; c < WIDTH; ++c)
            assert_true(stored[c * WIDTH + r] == a[r * WIDTH + c]);
}

/* A 100 x 33 product over 65: M is 100 x 65 (6,500 elements), N 65 x 33 (2,145), P 100 x 33 (3,300); 11,945 in
 * all. */
static void each_operand_has_the_extents_of_its_place_in_the_product(void **state)
{
    (void)state;
    const struct matmul_shape shape = {.rows = 100, .cols = 33, .inner = 65};
    int rows, cols;
    operands_extents(shape, OPERAND_M, &rows, &cols);
    assert_int_equal(rows, 100);
    assert_int_equal(cols, 65);
    operands_extents(shape, OPERAND_N, &rows, &cols);
    assert_int_equal(rows, 65);
    assert_int_equal(cols, 33);
    operands_extents(shape, OPERAND_P, &rows, &cols);
    assert_int_equal(rows, 100);
    assert_int_equal(cols, 33);
    assert_int_equal(operands_count(shape, OPERAND_M), 6500);
    assert_int_equal(operands_count(shape, OPERAND_N), 2145);
    assert_int_equal(operands_count(shape, OPERAND_P), 3300);
    assert_int_equal(operands_total(shape), 11945);
    /* 8192 x 4096 over 1024: P alone is 2^25 elements, the three 2^23 + 2^22 + 2^25 */
    assert_true(operands_total((struct matmul_shape){8192, 4096, 1024}) == (1u << 23) + (1u << 22) + (1u << 25));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_values_lie_in_unit_range),
        cmocka_unit_test(each_operand_has_the_extents_of_its_place_in_the_product),
        cmocka_unit_test(largest_draw_stays_below_one_after_rounding),
        cmocka_unit_test(random_values_are_spread),
        cmocka_unit_test(same_seed_reproduces_values),
        cmocka_unit_test(a_fill_split_among_threads_draws_what_one_thread_does),
        cmocka_unit_test(a_pack_split_among_threads_puts_every_row_in_place),
        cmocka_unit_test(other_seed_gives_other_values),
        cmocka_unit_test(fp32_values_are_exact_floats),
        cmocka_unit_test(fp32_values_lie_on_the_float_grid),
        cmocka_unit_test(column_major_per_layout_and_operand),
        cmocka_unit_test(pack_column_major_transposes),
        cmocka_unit_test(pack_row_major_keeps_order),
        cmocka_unit_test(pack_column_major_of_a_wide_matrix_walks_its_columns),
        cmocka_unit_test(round_trip_fp32_row_major),
        cmocka_unit_test(round_trip_fp32_column_major),
        cmocka_unit_test(round_trip_fp64_row_major),
        cmocka_unit_test(round_trip_fp64_column_major),
        cmocka_unit_test(column_major_element_lands_at_transposed_index),
        cmocka_unit_test(tensor_types_draw_values_they_hold_exactly),
        cmocka_unit_test(bf16_encodings_round_to_nearest_even),
        cmocka_unit_test(fp16_encodings_round_to_nearest_even),
        cmocka_unit_test(tensor_types_round_trip_exactly),
    };
    return cmocka_run_group_tests_name("operands", tests, NULL, NULL);
}
