/* The statistics of memscope-compare on synthetic samples: identical code is
 * never called SLOWER or FASTER, a real 5 % shift is, a 1 % shift under the 2 %
 * floor is SAME, and noise or too few samples give UNSURE. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/compare/verdict.h"

#define N 30

/* Timing-like samples: scale x (1 + relative Gaussian noise), from a fixed seed. */
static void samples(double *out, int n, double scale, double noise, unsigned seed)
{
    unsigned long long state = seed * 2654435761ULL + 1;
    for (int i = 0; i < n; ++i) {
        double u[2];
        for (int k = 0; k < 2; ++k) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            u[k] = ((state >> 11) + 0.5) / 9007199254740992.0;
        }
        out[i] = scale * (1 + noise * sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]));
    }
}

static enum verdict judge(double shift, double noise, int n, unsigned seed, struct timing_comparison *c)
{
    double base[N], head[N];
    samples(base, n, 1.0, noise, seed);
    samples(head, n, 1.0 + shift, noise, seed + 1000);
    assert_int_equal(compare_timings(base, n, head, n, &VERDICT_RULES_DEFAULT, c), 0);
    return c->verdict;
}

static void identical_distributions_are_never_slower_or_faster(void **state)
{
    (void)state;
    struct timing_comparison c;
    for (unsigned seed = 1; seed <= 200; ++seed) {
        enum verdict v = judge(0.0, 0.005, N, seed, &c);
        if (v == VERDICT_SLOWER || v == VERDICT_FASTER)
            fail_msg("seed %u: %s (%s)", seed, verdict_name(v), c.reason);
    }
}

static void five_percent_slower_with_small_noise_is_slower(void **state)
{
    (void)state;
    struct timing_comparison c;
    assert_int_equal(judge(0.05, 0.005, N, 7, &c), VERDICT_SLOWER);
    assert_true(c.change > 0.04 && c.change < 0.06);
    assert_true(c.interval_low > 0.02 && c.interval_high < 0.08);
    assert_true(c.p_value < 1e-6);
}

static void five_percent_faster_is_faster(void **state)
{
    (void)state;
    struct timing_comparison c;
    assert_int_equal(judge(-0.05, 0.005, N, 9, &c), VERDICT_FASTER);
}

static void one_percent_under_a_two_percent_floor_is_same(void **state)
{
    (void)state;
    struct timing_comparison c;
    assert_int_equal(judge(0.01, 0.002, N, 11, &c), VERDICT_SAME);
    assert_true(c.p_value < 0.01); /* significant, yet too small to matter */
}

static void noisy_samples_are_unsure(void **state)
{
    (void)state;
    struct timing_comparison c;
    assert_int_equal(judge(0.03, 0.10, N, 13, &c), VERDICT_UNSURE);
    assert_non_null(strstr(c.reason, "floor"));
}

static void too_few_samples_are_unsure(void **state)
{
    (void)state;
    struct timing_comparison c;
    assert_int_equal(judge(0.20, 0.001, 3, 15, &c), VERDICT_UNSURE);
    assert_non_null(strstr(c.reason, "too few samples"));
}

/* Larger than the floor but inside a side's own interquartile spread. */
static void change_within_the_spread_is_unsure(void **state)
{
    (void)state;
    double base[200], head[200];
    struct timing_comparison c;
    samples(base, 200, 1.0, 0.06, 17);
    samples(head, 200, 1.03, 0.06, 18);
    assert_int_equal(compare_timings(base, 200, head, 200, &VERDICT_RULES_DEFAULT, &c), 0);
    assert_int_equal(c.verdict, VERDICT_UNSURE);
    assert_non_null(strstr(c.reason, "within the spread"));
}

/* n1 = n2 = 5 fully separated: U = 0, z = 12 / sqrt(25 * 11 / 12), p = 0.01219 (textbook value). */
static void mann_whitney_matches_the_normal_approximation(void **state)
{
    (void)state;
    const double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
    assert_float_equal(mann_whitney_p(a, 5, b, 5), 0.01219, 2e-5);
    assert_float_equal(mann_whitney_p(b, 5, a, 5), 0.01219, 2e-5);
}

static void all_equal_samples_give_p_one(void **state)
{
    (void)state;
    const double a[] = {1, 1, 1, 1, 1}, b[] = {1, 1, 1, 1, 1, 1};
    assert_float_equal(mann_whitney_p(a, 5, b, 6), 1.0, 0);
}

static void bootstrap_is_deterministic_and_brackets_the_ratio(void **state)
{
    (void)state;
    double a[N], b[N], low1, high1, low2, high2;
    samples(a, N, 1.0, 0.01, 21);
    samples(b, N, 1.1, 0.01, 22);
    assert_int_equal(bootstrap_median_ratio(a, N, b, N, 2000, 5, &low1, &high1), 0);
    assert_int_equal(bootstrap_median_ratio(a, N, b, N, 2000, 5, &low2, &high2), 0);
    assert_float_equal(low1, low2, 0);
    assert_float_equal(high1, high2, 0);
    assert_true(low1 < 1.1 && high1 > 1.1 && low1 > 1.08 && high1 < 1.12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identical_distributions_are_never_slower_or_faster),
        cmocka_unit_test(five_percent_slower_with_small_noise_is_slower),
        cmocka_unit_test(five_percent_faster_is_faster),
        cmocka_unit_test(one_percent_under_a_two_percent_floor_is_same),
        cmocka_unit_test(noisy_samples_are_unsure),
        cmocka_unit_test(too_few_samples_are_unsure),
        cmocka_unit_test(change_within_the_spread_is_unsure),
        cmocka_unit_test(mann_whitney_matches_the_normal_approximation),
        cmocka_unit_test(all_equal_samples_give_p_one),
        cmocka_unit_test(bootstrap_is_deterministic_and_brackets_the_ratio),
    };
    return cmocka_run_group_tests_name("compare statistics", tests, NULL, NULL);
}
