/* Comparing an output with the reference: errors relative to the reference's root-mean-square. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/check/check.h"
#include "../../harness/check/operands.h"

#define WIDTH 100
#define COUNT (WIDTH * WIDTH)
#define PERTURBED 4321

static double ref[COUNT], out[COUNT];

/* Values between 0.5 and 1.5, so the root-mean-square of the reference is near 1. */
static int fill_reference(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT; ++i)
        ref[i] = 1.0 + 0.5 * sin((double)i);
    memcpy(out, ref, sizeof out);
    return 0;
}

static void tolerances(void **state)
{
    (void)state;
    assert_true(check_tolerance(MATMUL_FP32) == 1e-4);
    assert_true(check_tolerance(MATMUL_FP64) == 1e-12);
    /* docs/variants.md's figures */
    assert_true(check_tolerance(MATMUL_BF16) == 3e-2);
    assert_true(check_tolerance(MATMUL_FP16) == 4e-3);
    assert_true(check_tolerance(MATMUL_TF32) == 1e-4);
}

/* The exact product of inputs drawn for a 16-bit type, as a GEMM with FP32 accumulation hands it back in that type:
 * rounded once, to the nearest value of the type. With the largest element 6 rms(P) away, as in a big product. */
static void product_rounded_to(enum matmul_precision precision)
{
    enum { W = 96 };
    static double m[W * W], n[W * W];
    operands_fill_random(m, W * W, 5, precision);
    operands_fill_random(n, W * W, 6, precision);
    for (int r = 0; r < WIDTH; ++r)
        for (int c = 0; c < WIDTH; ++c) {
            double sum = 0.0;
            for (int k = 0; k < W; ++k)
                sum += m[(r % W) * W + k] * n[k * W + c % W];
            ref[r * WIDTH + c] = sum;
        }
    double sq = 0.0;
    for (size_t i = 0; i < COUNT; ++i)
        sq += ref[i] * ref[i];
    ref[PERTURBED] = 6.0 * sqrt(sq / COUNT) * (1.0 + 0x1.0p-12); /* just above a tie at bf16's and fp16's scale */
    for (size_t i = 0; i < COUNT; ++i)
        out[i] = precision == MATMUL_BF16 ? operands_double_from_bf16(operands_bf16_from_double(ref[i]))
                                          : operands_double_from_fp16(operands_fp16_from_double(ref[i]));
}

/* An output rounded to its type passes that type's tolerance, and fails the next tighter one: the tolerance is no
 * looser than the rounding needs. */
static void a_16_bit_output_passes_its_own_tolerance(void **state)
{
    (void)state;
    struct check_result r;
    product_rounded_to(MATMUL_BF16);
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_BF16), &r);
    assert_true(r.passed);
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_FP16), &r);
    assert_false(r.passed);
    product_rounded_to(MATMUL_FP16);
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_FP16), &r);
    assert_true(r.passed);
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_FP32), &r);
    assert_false(r.passed);
}

/* One element of a bf16 output off by 5 % of rms(P) (a wrong k step, say) fails. */
static void a_wrong_bf16_element_fails(void **state)
{
    (void)state;
    struct check_result r;
    double sq = 0.0;
    product_rounded_to(MATMUL_BF16);
    for (size_t i = 0; i < COUNT; ++i)
        sq += ref[i] * ref[i];
    out[17] += 0.05 * sqrt(sq / COUNT);
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_BF16), &r);
    assert_false(r.passed);
}

static void identical_arrays_pass_with_zero_error(void **state)
{
    (void)state;
    struct check_result r;
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_FP64), &r);
    assert_true(r.passed);
    assert_int_equal(r.non_finite, 0);
    assert_true(r.max_error == 0.0);
    assert_true(r.rel_l2_error == 0.0);
    assert_true(r.tolerance == 1e-12);
}

static void one_wrong_element_fails(void **state)
{
    (void)state;
    out[PERTURBED] += 1.0;
    struct check_result r;
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_FP32), &r);
    assert_false(r.passed);
    assert_int_equal(r.non_finite, 0);
    assert_int_equal(r.worst_index, PERTURBED);
    /* |error| 1 against a root-mean-square between 0.5 and 1.5 */
    assert_true(r.max_error > 0.5 && r.max_error < 2.0);
}

static void single_nan_fails(void **state)
{
    (void)state;
    out[PERTURBED] = NAN;
    struct check_result r;
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_FP32), &r);
    assert_false(r.passed);
    assert_int_equal(r.non_finite, 1);
    assert_true(r.max_error == 0.0); /* the remaining elements are exact */
}

static void infinity_counts_as_non_finite(void **state)
{
    (void)state;
    out[0] = INFINITY;
    out[1] = -INFINITY;
    struct check_result r;
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_FP32), &r);
    assert_false(r.passed);
    assert_int_equal(r.non_finite, 2);
}

static void add_relative_noise(double amount)
{
    for (size_t i = 0; i < COUNT; ++i)
        out[i] = ref[i] * (1.0 + (i % 2 ? amount : -amount));
}

static void small_noise_passes_at_fp32_tolerance(void **state)
{
    (void)state;
    add_relative_noise(1e-6);
    struct check_result r;
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_FP32), &r);
    assert_true(r.passed);
    assert_true(r.max_error > 0.0 && r.max_error < 1e-5);
}

static void small_noise_fails_at_fp64_tolerance(void **state)
{
    (void)state;
    add_relative_noise(1e-6);
    struct check_result r;
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_FP64), &r);
    assert_false(r.passed);
    assert_int_equal(r.non_finite, 0);
}

static void worst_index_points_at_largest_error(void **state)
{
    (void)state;
    add_relative_noise(1e-6);
    out[PERTURBED] = ref[PERTURBED] + 1e-3;
    struct check_result r;
    check_against_reference(out, ref, COUNT, check_tolerance(MATMUL_FP32), &r);
    assert_int_equal(r.worst_index, PERTURBED);
    assert_false(r.passed);
}

static void error_is_relative_to_rms(void **state)
{
    (void)state;
    const double reference[] = {3, 4, 0, 0}; /* rms = sqrt((9 + 16) / 4) = 2.5 */
    const double output[] = {3, 4, 0.5, 0};
    struct check_result r;
    check_against_reference(output, reference, 4, 1.0, &r);
    /* max error 0.5 / 2.5 = 0.2; relative L2 = 0.5 / sqrt(25) = 0.1 */
    assert_true(fabs(r.max_error - 0.2) < 1e-15);
    assert_true(fabs(r.rel_l2_error - 0.1) < 1e-15);
    assert_int_equal(r.worst_index, 2);
    assert_true(r.passed);
}

/* An output as large as 2048 x 2048 is compared by several threads (harness/check/parallel.h), each its runs of
 * elements. The result is that of the one pass in order the test makes itself: the sums within rounding, the
 * non-finite elements of every run counted, and of two equal largest errors, in the first run and the last, the
 * first, whichever thread finishes first. */
#define BIG_COUNT (2048u * 2048u)
static double big_ref[BIG_COUNT], big_out[BIG_COUNT];

static void a_large_comparison_is_one_pass_in_order(void **state)
{
    (void)state;
    const size_t first_worst = 100, second_worst = BIG_COUNT - 100, nans[] = {0, BIG_COUNT / 2, BIG_COUNT - 1};
    for (size_t i = 0; i < BIG_COUNT; ++i) {
        big_ref[i] = 1.0 + 0.5 * sin((double)i);
        big_out[i] = big_ref[i] * (1.0 + (i % 3 ? 1e-7 : -2e-7));
    }
    big_ref[first_worst] = big_ref[second_worst] = 1.0; /* errors of exactly 2^-10 both */
    big_out[first_worst] = big_out[second_worst] = 1.0 + 0x1.0p-10;
    for (size_t k = 0; k < sizeof nans / sizeof *nans; ++k)
        big_out[nans[k]] = NAN;
    long double ref_sq = 0, diff_sq = 0;
    double worst = 0;
    for (size_t i = 0; i < BIG_COUNT; ++i) {
        ref_sq += big_ref[i] * big_ref[i];
        if (isfinite(big_out[i])) {
            double diff = fabs(big_out[i] - big_ref[i]);
            diff_sq += diff * diff;
            worst = diff > worst ? diff : worst;
        }
    }
    struct check_result r;
    check_against_reference(big_out, big_ref, BIG_COUNT, check_tolerance(MATMUL_FP32), &r);
    assert_int_equal(r.non_finite, 3);
    assert_int_equal(r.worst_index, first_worst);
    assert_true(fabs(r.max_error - (double)(worst / sqrtl(ref_sq / BIG_COUNT))) < 1e-12 * r.max_error);
    assert_true(fabs(r.rel_l2_error - (double)sqrtl(diff_sq / ref_sq)) < 1e-12 * r.rel_l2_error);
    assert_false(r.passed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tolerances),
        cmocka_unit_test(a_large_comparison_is_one_pass_in_order),
        cmocka_unit_test(a_16_bit_output_passes_its_own_tolerance),
        cmocka_unit_test(a_wrong_bf16_element_fails),
        cmocka_unit_test_setup(identical_arrays_pass_with_zero_error, fill_reference),
        cmocka_unit_test_setup(one_wrong_element_fails, fill_reference),
        cmocka_unit_test_setup(single_nan_fails, fill_reference),
        cmocka_unit_test_setup(infinity_counts_as_non_finite, fill_reference),
        cmocka_unit_test_setup(small_noise_passes_at_fp32_tolerance, fill_reference),
        cmocka_unit_test_setup(small_noise_fails_at_fp64_tolerance, fill_reference),
        cmocka_unit_test_setup(worst_index_points_at_largest_error, fill_reference),
        cmocka_unit_test(error_is_relative_to_rms),
    };
    return cmocka_run_group_tests_name("check", tests, NULL, NULL);
}
