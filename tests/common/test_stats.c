/* Summary statistics of timing samples; every expected value is worked out by hand in the comments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/common/stats.h"

#define Z95 1.959964

static void assert_close(double actual, double expected)
{
    if (!(fabs(actual - expected) <= 1e-12 * fmax(1.0, fabs(expected))))
        fail_msg("got %.17g, expected %.17g", actual, expected);
}

static void five_ascending_values(void **state)
{
    (void)state;
    const double x[] = {1, 2, 3, 4, 5};
    struct sample_stats s;
    assert_int_equal(stats_compute(x, 5, &s), 0);
    assert_int_equal(s.n, 5);
    assert_close(s.min, 1);
    assert_close(s.max, 5);
    /* Type 7: position q * (n - 1) = 1, 2, 3 exactly, so the quartiles are order statistics. */
    assert_close(s.q1, 2);
    assert_close(s.median, 3);
    assert_close(s.q3, 4);
    /* mean 15 / 5 = 3; squared deviations 4 + 1 + 0 + 1 + 4 = 10, over n - 1 = 4: variance 2.5. */
    assert_close(s.mean, 3);
    assert_close(s.stdev, sqrt(2.5));
    /* 1.959964 * sqrt(2.5) / sqrt(5) / 3 = 1.959964 * sqrt(0.5) / 3 */
    assert_close(s.ci95_rel, Z95 * sqrt(0.5) / 3);
}

static void unsorted_even_count_interpolates(void **state)
{
    (void)state;
    const double x[] = {4, 1, 3, 2};
    struct sample_stats s;
    assert_int_equal(stats_compute(x, 4, &s), 0);
    /* Sorted 1 2 3 4. Positions q * 3: 0.75 -> 1 + 0.75 * (2 - 1) = 1.75;
     * 1.5 -> 2 + 0.5 * (3 - 2) = 2.5; 2.25 -> 3 + 0.25 * (4 - 3) = 3.25. */
    assert_close(s.q1, 1.75);
    assert_close(s.median, 2.5);
    assert_close(s.q3, 3.25);
    assert_close(s.min, 1);
    assert_close(s.max, 4);
    /* mean 10 / 4 = 2.5; deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, over 3. */
    assert_close(s.mean, 2.5);
    assert_close(s.stdev, sqrt(5.0 / 3.0));
}

static void single_sample_has_no_spread(void **state)
{
    (void)state;
    const double x[] = {7.5};
    struct sample_stats s;
    assert_int_equal(stats_compute(x, 1, &s), 0);
    assert_int_equal(s.n, 1);
    assert_close(s.min, 7.5);
    assert_close(s.q1, 7.5);
    assert_close(s.median, 7.5);
    assert_close(s.q3, 7.5);
    assert_close(s.max, 7.5);
    assert_close(s.mean, 7.5);
    assert_true(s.stdev == 0.0);
    assert_true(isinf(s.ci95_rel) && s.ci95_rel > 0);
}

static void ci95_rel_of_three_samples(void **state)
{
    (void)state;
    const double x[] = {9, 10, 11};
    struct sample_stats s;
    assert_int_equal(stats_compute(x, 3, &s), 0);
    /* mean 10; variance (1 + 0 + 1) / 2 = 1; half-width 1.959964 * 1 / sqrt(3), relative to 10. */
    assert_close(s.stdev, 1);
    assert_close(s.ci95_rel, Z95 * 1 / sqrt(3) / 10);
}

static void zero_mean_has_infinite_relative_interval(void **state)
{
    (void)state;
    const double x[] = {-1, 1};
    struct sample_stats s;
    assert_int_equal(stats_compute(x, 2, &s), 0);
    assert_close(s.mean, 0);
    assert_true(isinf(s.ci95_rel));
}

static void input_is_not_reordered(void **state)
{
    (void)state;
    double x[] = {5, 3, 9, 1, 7};
    const double original[] = {5, 3, 9, 1, 7};
    struct sample_stats s;
    assert_int_equal(stats_compute(x, 5, &s), 0);
    assert_memory_equal(x, original, sizeof x);
}

static void running_stats_agree_with_stats_compute(void **state)
{
    (void)state;
    const double x[] = {1.25, 0.5, 3.0, 2.75, 1.0, 0.125, 4.5};
    const int n = sizeof x / sizeof x[0];
    struct running_stats r = {0};
    for (int i = 0; i < n; ++i)
        running_add(&r, x[i]);
    struct sample_stats s;
    assert_int_equal(stats_compute(x, n, &s), 0);
    assert_int_equal(r.n, n);
    assert_close(r.mean, s.mean);
    assert_close(running_ci95_rel(&r), s.ci95_rel);
}

static void running_stats_of_known_data(void **state)
{
    (void)state;
    const double x[] = {9, 10, 11};
    struct running_stats r = {0};
    for (int i = 0; i < 3; ++i)
        running_add(&r, x[i]);
    /* mean 10; sum of squared deviations 1 + 0 + 1 = 2 */
    assert_close(r.mean, 10);
    assert_close(r.m2, 2);
    assert_close(running_ci95_rel(&r), Z95 * 1 / sqrt(3) / 10);
}

static void running_stats_with_one_sample_are_unbounded(void **state)
{
    (void)state;
    struct running_stats r = {0};
    assert_true(isinf(running_ci95_rel(&r)));
    running_add(&r, 3.0);
    assert_true(isinf(running_ci95_rel(&r)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(five_ascending_values),
        cmocka_unit_test(unsorted_even_count_interpolates),
        cmocka_unit_test(single_sample_has_no_spread),
        cmocka_unit_test(ci95_rel_of_three_samples),
        cmocka_unit_test(zero_mean_has_infinite_relative_interval),
        cmocka_unit_test(input_is_not_reordered),
        cmocka_unit_test(running_stats_agree_with_stats_compute),
        cmocka_unit_test(running_stats_of_known_data),
        cmocka_unit_test(running_stats_with_one_sample_are_unbounded),
    };
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
