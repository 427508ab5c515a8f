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

#include "../../harness/common/stats.h"
#include "../../harness/compare/round_noise.h"
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
    assert_int_equal(compare_timings(base, n, head, n, &VERDICT_RULES_DEFAULT, 0, c), 0);
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
    assert_int_equal(compare_timings(base, 200, head, 200, &VERDICT_RULES_DEFAULT, 0, &c), 0);
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

/* Ten differences 1..10, all positive: W+ = 55, mean 10 x 11 / 4 = 27.5, variance 10 x 11 x 21 / 24 = 96.25,
 * z = (27.5 - 0.5) / 9.811, p = 0.005922; a difference of 0 is dropped; -1, 1, -2, 2 balance: p = 1. */
static void signed_rank_matches_the_normal_approximation(void **state)
{
    (void)state;
    const double d[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0}, balanced[] = {-1, 1, -2, 2};
    assert_float_equal(wilcoxon_signed_rank_p(d, 10), 0.005922, 2e-6);
    assert_float_equal(wilcoxon_signed_rank_p(d, 11), 0.005922, 2e-6);
    assert_float_equal(wilcoxon_signed_rank_p(balanced, 4), 1.0, 0);
}

/* A kernel launched at two shapes, six launches of 1 ms and six of 10 ms, each 5 % slower in the head. Unpaired its
 * samples spread over 160 % of their median, and no change can show. Launch by launch every ratio is 1.05: twelve
 * equal positive differences, W+ = 78, mean 39, variance 12 x 13 x 25 / 24 - (12^3 - 12) / 48 = 126.75, p = 0.00063;
 * SLOWER by 5 %. The same launches unchanged: SAME. */
static void paired_launches_see_through_a_kernels_shapes(void **state)
{
    (void)state;
    double base[12], head[12];
    struct timing_comparison c;
    for (int i = 0; i < 12; ++i)
        base[i] = i % 2 ? 10 : 1, head[i] = 1.05 * base[i];
    assert_int_equal(compare_timings(base, 12, head, 12, &VERDICT_RULES_DEFAULT, 0, &c), 0);
    assert_int_equal(c.verdict, VERDICT_UNSURE);
    assert_int_equal(compare_timings_paired(base, head, 12, &VERDICT_RULES_DEFAULT, 0, &c), 0);
    assert_int_equal(c.verdict, VERDICT_SLOWER);
    assert_float_equal(c.change, 0.05, 1e-12);
    assert_float_equal(c.p_value, 0.000627, 1e-6);
    assert_non_null(strstr(c.reason, "12 launches paired"));
    assert_int_equal(compare_timings_paired(base, base, 12, &VERDICT_RULES_DEFAULT, 0, &c), 0);
    assert_int_equal(c.verdict, VERDICT_SAME);
}

/* Six launches each 20 % slower: the signed-rank test's p cannot fall below 0.01 with six pairs (0.0197 here), and
 * the reason says so rather than that the interval, [+20 %, +20 %], reaches past the floor. */
static void too_few_pairs_for_alpha_say_so(void **state)
{
    (void)state;
    double base[6], head[6];
    struct timing_comparison c;
    for (int i = 0; i < 6; ++i)
        base[i] = 1 + i, head[i] = 1.2 * base[i];
    assert_int_equal(compare_timings_paired(base, head, 6, &VERDICT_RULES_DEFAULT, 0, &c), 0);
    assert_int_equal(c.verdict, VERDICT_UNSURE);
    assert_non_null(strstr(c.reason, "not below alpha"));
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

/* Textbook values of Student's t: the 99.5 % point at 1, 4 and 30 degrees of freedom, the 97.5 % at 10. */
static void t_quantiles_match_the_tables(void **state)
{
    (void)state;
    assert_float_equal(student_t_quantile(0.995, 1), 63.657, 1e-3);
    assert_float_equal(student_t_quantile(0.995, 4), 4.604, 1e-3);
    assert_float_equal(student_t_quantile(0.975, 10), 2.228, 1e-3);
    assert_float_equal(student_t_quantile(0.995, 30), 2.750, 1e-3);
    /* The far tail a small --alpha asks for, against closed forms: with 2 degrees of freedom t = sqrt(2 a^2 /
     * (1 - a^2)), a = 1 - alpha, 1000.0 at alpha 1e-6; with 1 (Cauchy) t = cot(pi alpha / 2), 636619.8. */
    assert_float_equal(student_t_quantile(1 - 0.5e-6, 2), 1000.0, 0.01);
    assert_float_equal(student_t_quantile(1 - 0.5e-6, 1), 636619.8, 1.0);
}

/* Worked by hand: log medians' squared deviations 0.000200 and 0.000800 over 4 degrees of freedom give s = 0.0158;
 * 4.604 x 0.0158 x sqrt(2/3) = 0.0594, and e^0.0594 - 1 = 6.12 %. One round a side measures no noise. */
static void round_noise_floor_is_the_t_tests_threshold(void **state)
{
    (void)state;
    const double base[] = {1.00, 1.01, 0.99}, head[] = {1.00, 1.02, 0.98};
    assert_float_equal(round_noise_floor(base, 3, head, 3, 0.01), 0.06125, 1e-4);
    assert_float_equal(round_noise_floor(base, 1, head, 3, 0.01), 0, 0);
}

#define ROUNDS 3
#define PER_ROUND 10

/* ROUNDS rounds a side of PER_ROUND samples with 0.2 % noise, each round moved by its own run-to-run offset (a
 * relative Gaussian of sd between), the head's also by shift; judged with the floor its rounds' medians set, or
 * without. */
static enum verdict judge_rounds(double shift, double between, unsigned seed, int with_round_floor,
                                 struct timing_comparison *c)
{
    double base[ROUNDS * PER_ROUND], head[ROUNDS * PER_ROUND], offset[2 * ROUNDS], medians[2][ROUNDS];
    samples(offset, 2 * ROUNDS, 1.0, between, seed + 5000);
    for (int r = 0; r < ROUNDS; ++r) {
        samples(base + r * PER_ROUND, PER_ROUND, offset[r], 0.002, seed + 10 * r);
        samples(head + r * PER_ROUND, PER_ROUND, offset[ROUNDS + r] * (1 + shift), 0.002, seed + 10 * r + 1);
        struct sample_stats b, h;
        assert_int_equal(stats_compute(base + r * PER_ROUND, PER_ROUND, &b), 0);
        assert_int_equal(stats_compute(head + r * PER_ROUND, PER_ROUND, &h), 0);
        medians[0][r] = b.median;
        medians[1][r] = h.median;
    }
    double floor = with_round_floor ? round_noise_floor(medians[0], ROUNDS, medians[1], ROUNDS, 0.01) : 0;
    assert_int_equal(compare_timings(base, ROUNDS * PER_ROUND, head, ROUNDS * PER_ROUND, &VERDICT_RULES_DEFAULT,
                                     floor, c), 0);
    return c->verdict;
}

static int false_alarms(double between, int with_round_floor)
{
    struct timing_comparison c;
    int alarms = 0;
    for (unsigned seed = 1; seed <= 200; ++seed) {
        enum verdict v = judge_rounds(0, between, seed, with_round_floor, &c);
        alarms += v == VERDICT_SLOWER || v == VERDICT_FASTER;
    }
    return alarms;
}

/* Runs 3 % apart (sd) with samples 0.2 % apart within each: pooled samples call identical code SLOWER or FASTER in
 * 5 % of 200 A/A comparisons or more; with the rounds' noise floor, about alpha's 1 % (at most 2.5 % here). */
static void run_to_run_noise_raises_the_floor_and_stops_false_alarms(void **state)
{
    (void)state;
    int without = false_alarms(0.03, 0), with = false_alarms(0.03, 1);
    print_message("false alarms in 200 A/A comparisons: %d pooled, %d with the rounds' floor\n", without, with);
    assert_true(without >= 10);
    assert_true(with <= 5);
}

/* Quiet runs keep the 2 % floor, and a 5 % change is still SLOWER. */
static void quiet_rounds_keep_the_floor_and_the_power(void **state)
{
    (void)state;
    struct timing_comparison c;
    assert_int_equal(judge_rounds(0.05, 0.002, 3, 1, &c), VERDICT_SLOWER);
    assert_float_equal(c.floor, 0.02, 0);
    assert_int_equal(c.floor_from_rounds, 0);
}

/* Rounds at 0.97, 1.00 and 1.03 against 1.02, 1.05 and 1.08 (0.1 % noise within each): a 5 % change, significant by
 * the pooled samples, under the floor of about 11 % those rounds set. UNSURE, never SAME, and the reason says why. */
static void a_change_under_the_rounds_floor_is_unsure_not_same(void **state)
{
    (void)state;
    const double level[2][ROUNDS] = {{0.97, 1.00, 1.03}, {1.02, 1.05, 1.08}};
    double x[2][ROUNDS * PER_ROUND];
    struct timing_comparison c;
    for (int side = 0; side < 2; ++side)
        for (int r = 0; r < ROUNDS; ++r)
            samples(x[side] + r * PER_ROUND, PER_ROUND, level[side][r], 0.001, 40 + 10 * side + r);
    double floor = round_noise_floor(level[0], ROUNDS, level[1], ROUNDS, 0.01);
    assert_true(floor > 0.10 && floor < 0.12);
    assert_int_equal(compare_timings(x[0], ROUNDS * PER_ROUND, x[1], ROUNDS * PER_ROUND, &VERDICT_RULES_DEFAULT,
                                     floor, &c), 0);
    assert_int_equal(c.verdict, VERDICT_UNSURE);
    assert_non_null(strstr(c.reason, "is within the 11."));
    assert_non_null(strstr(c.reason, "floor of its rounds' noise"));
}

/* A unit 10 % slower (interval +8 to +12 %, spread 1 %, floor 2 %) whose test read p. */
static struct timing_comparison *ten_percent_slower(struct timing_comparison *unit, double p)
{
    *unit = (struct timing_comparison){.base_n = 30, .head_n = 30, .base_median = 1, .head_median = 1.1,
                                       .base_spread = 0.01, .head_spread = 0.01, .change = 0.1, .interval_low = 0.08,
                                       .interval_high = 0.12, .p_value = p, .floor = 0.02};
    return unit;
}

/* Holm's step-down by hand: p = 0.03, 0.001, 0.2, 0.004 over 4 units sort to 0.001, 0.004, 0.03, 0.2 and weigh
 * 4 x 0.001 = 0.004, 3 x 0.004 = 0.012, 2 x 0.03 = 0.06, 1 x 0.2 = 0.2 (each at least the one before). Every unit
 * changed by +10 % (interval +8 to +12 %, spread 1 %): at alpha 0.01 only the first stays SLOWER; the second, alone
 * significant, is UNSURE and its reason gives both p. */
static void holm_weighs_a_family_of_units(void **state)
{
    (void)state;
    static const double p[] = {0.03, 0.001, 0.2, 0.004}, family_p[] = {0.06, 0.004, 0.2, 0.012};
    struct timing_comparison unit[4], *family[4];
    for (int i = 0; i < 4; ++i)
        family[i] = ten_percent_slower(&unit[i], p[i]);
    assert_int_equal(verdict_holm(family, 4, &VERDICT_RULES_DEFAULT), 0);
    for (int i = 0; i < 4; ++i) {
        assert_float_equal(unit[i].p_family, family_p[i], 1e-12);
        assert_int_equal(unit[i].family, 4);
        assert_int_equal(unit[i].verdict, i == 1 ? VERDICT_SLOWER : VERDICT_UNSURE);
    }
    assert_string_equal(unit[3].reason, "U test p = 0.004 (0.012 by Holm over 4 units), not below alpha 0.01");
    assert_string_equal(unit[1].reason, "U test p = 0.001 (0.004 by Holm over 4 units); change beyond the 2 % floor "
                                        "and the spread");
}

/* Step-down, never less than the one before: p = 0.0041 and 0.004 weigh 2 x 0.004 = 0.008 and then 0.0041, which
 * rises to 0.008 (a larger p never passes where a smaller failed); both SLOWER at alpha 0.01. */
static void holm_keeps_the_family_p_in_order(void **state)
{
    (void)state;
    static const double p[] = {0.0041, 0.004};
    struct timing_comparison unit[2], *family[2];
    for (int i = 0; i < 2; ++i)
        family[i] = ten_percent_slower(&unit[i], p[i]);
    assert_int_equal(verdict_holm(family, 2, &VERDICT_RULES_DEFAULT), 0);
    assert_float_equal(unit[0].p_family, 0.008, 1e-12);
    assert_float_equal(unit[1].p_family, 0.008, 1e-12);
    assert_int_equal(unit[0].verdict, VERDICT_SLOWER);
}

/* Alone, a unit's family p is its p: compare_timings judges it so, and Holm over one unit changes nothing. */
static void one_unit_is_its_own_family(void **state)
{
    (void)state;
    struct timing_comparison c, *alone = &c;
    assert_int_equal(judge(0.05, 0.005, N, 2, &c), VERDICT_SLOWER);
    assert_float_equal(c.p_family, c.p_value, 0);
    assert_int_equal(c.family, 1);
    assert_int_equal(verdict_holm(&alone, 1, &VERDICT_RULES_DEFAULT), 0);
    assert_float_equal(c.p_family, c.p_value, 0);
    assert_int_equal(c.verdict, VERDICT_SLOWER);
    assert_null(strstr(c.reason, "Holm"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identical_distributions_are_never_slower_or_faster),
        cmocka_unit_test(holm_weighs_a_family_of_units),
        cmocka_unit_test(holm_keeps_the_family_p_in_order),
        cmocka_unit_test(one_unit_is_its_own_family),
        cmocka_unit_test(five_percent_slower_with_small_noise_is_slower),
        cmocka_unit_test(five_percent_faster_is_faster),
        cmocka_unit_test(t_quantiles_match_the_tables),
        cmocka_unit_test(round_noise_floor_is_the_t_tests_threshold),
        cmocka_unit_test(run_to_run_noise_raises_the_floor_and_stops_false_alarms),
        cmocka_unit_test(quiet_rounds_keep_the_floor_and_the_power),
        cmocka_unit_test(a_change_under_the_rounds_floor_is_unsure_not_same),
        cmocka_unit_test(one_percent_under_a_two_percent_floor_is_same),
        cmocka_unit_test(noisy_samples_are_unsure),
        cmocka_unit_test(too_few_samples_are_unsure),
        cmocka_unit_test(change_within_the_spread_is_unsure),
        cmocka_unit_test(mann_whitney_matches_the_normal_approximation),
        cmocka_unit_test(all_equal_samples_give_p_one),
        cmocka_unit_test(signed_rank_matches_the_normal_approximation),
        cmocka_unit_test(paired_launches_see_through_a_kernels_shapes),
        cmocka_unit_test(too_few_pairs_for_alpha_say_so),
        cmocka_unit_test(bootstrap_is_deterministic_and_brackets_the_ratio),
    };
    return cmocka_run_group_tests_name("compare statistics", tests, NULL, NULL);
}
