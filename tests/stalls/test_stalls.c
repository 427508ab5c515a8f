/*
 * The stalls room without a GPU: CUPTI's reason names, the sampling period chosen per call, and the samples
 * gathered per line and kernel. The reason names are those CUPTI 13.0 gave on an H100; the last test's kernel
 * totals are those measured there for naive_uncoalesced at W = 1024, split over two lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/stalls/sampling_period.h"
#include "../../harness/stalls/stall_lines.h"

static void cupti_names_lose_their_prefix(void **state)
{
    (void)state;
    char name[PROF_PCS_REASON_LEN];
    prof_pcs_reason_name("smsp__pcsamp_warps_issue_stalled_long_scoreboard", name, sizeof name);
    assert_string_equal(name, "long_scoreboard");
    prof_pcs_reason_name("smsp__pcsamp_warps_issue_stalled_selected", name, sizeof name);
    assert_string_equal(name, "selected");
}

static void not_issued_subsets_are_left_out(void **state)
{
    (void)state;
    char name[PROF_PCS_REASON_LEN] = "x";
    prof_pcs_reason_name("smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued", name, sizeof name);
    assert_string_equal(name, "");
}

static void an_unknown_name_is_kept_whole(void **state)
{
    (void)state;
    char name[PROF_PCS_REASON_LEN];
    prof_pcs_reason_name("smsp__pcsamp_sample_count", name, sizeof name);
    assert_string_equal(name, "smsp__pcsamp_sample_count");
}

/* 1 ms on 132 SMs at 1755 MHz is 231.7 M SM cycles: 2^10 gives 226 k samples, the next step of 3 from 2^9 is
 * 2^12 (57 k samples); 276 ms (naive_uncoalesced at W = 4096) gives 2^18 exactly. */
static void the_period_follows_the_kernel_time(void **state)
{
    (void)state;
    assert_int_equal(stall_period_log2(1.0, 132, 1755.0), 12);
    assert_int_equal(stall_period_log2(8.0, 132, 1755.0), 15);
    assert_int_equal(stall_period_log2(276.0, 132, 1755.0), 18);
    assert_int_equal(stall_period_log2(0.127, 132, 1755.0), 9); /* blocktiled_1d at 1024: never below 2^9 */
}

static void the_period_stays_in_cuptis_range(void **state)
{
    (void)state;
    assert_int_equal(stall_period_log2(0.0001, 132, 1755.0), STALL_PERIOD_MIN);
    assert_int_equal(stall_period_log2(0.0, 132, 1755.0), STALL_PERIOD_MIN);
    assert_int_equal(stall_period_log2(1e12, 132, 1755.0), STALL_PERIOD_MAX);
    for (double ms = 0.001; ms < 1e6; ms *= 3.7) {
        unsigned p = stall_period_log2(ms, 132, 1755.0);
        assert_true(p >= 9 && p <= 30);
        assert_int_equal((p - STALL_PERIOD_MIN) % STALL_PERIOD_STEP, 0);
    }
}

static const uint64_t long_scoreboard[4] = {0, 5, 0, 0}, throttle[4] = {100, 1, 0, 2};

static void instructions_of_a_line_add_up(void **state)
{
    (void)state;
    struct stall_call c = {.variant = "v"};
    struct error e = {0};
    assert_int_equal(stall_add(&c, "_Z1kv", "k.cu", 10, throttle, 4, &e), 0);
    assert_int_equal(stall_add(&c, "_Z1kv", "k.cu", 12, long_scoreboard, 4, &e), 0);
    assert_int_equal(stall_add(&c, "_Z1kv", "k.cu", 10, long_scoreboard, 4, &e), 0);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.lines[0].samples[0], 100);
    assert_int_equal(c.lines[0].samples[1], 6);
    assert_int_equal(c.lines[1].line, 12);
    stall_call_free(&c);
}

static void the_same_line_of_two_kernels_stays_apart(void **state)
{
    (void)state;
    struct stall_call c = {.variant = "v"};
    struct error e = {0};
    uint64_t totals[PROF_PCS_MAX_REASONS];
    stall_add(&c, "_Z1av", "k.cu", 10, throttle, 4, &e);
    stall_add(&c, "_Z1bv", "k.cu", 10, long_scoreboard, 4, &e);
    assert_int_equal(c.n, 2);
    assert_int_equal(stall_function_totals(&c, "_Z1bv", 4, totals), 5);
    assert_int_equal(stall_function_totals(&c, NULL, 4, totals), 108);
    assert_string_equal(stall_busiest_function(&c, 4), "_Z1av");
    stall_call_free(&c);
}

static void nothing_sampled_has_no_top_reason(void **state)
{
    (void)state;
    struct stall_call c = {.variant = "cublas"};
    struct stall_reasons reasons = {.n = 2, .name = {"a", "b"}};
    struct stall_summary s;
    uint64_t zero[PROF_PCS_MAX_REASONS] = {0};
    assert_null(stall_busiest_function(&c, 2));
    assert_int_equal(stall_top_reason(zero, 2), -1);
    stall_summarize(&c, &reasons, &s);
    assert_int_equal(s.samples, 0);
    assert_string_equal(s.top_reason, "");
}

/* naive_uncoalesced, W = 1024, H100: 255,853 of 273,373 samples in lg_throttle (93.6 %). */
static void the_summary_names_the_top_reason_and_its_share(void **state)
{
    (void)state;
    struct stall_call c = {.variant = "naive_uncoalesced", .wall_ms = 380.0};
    struct stall_reasons reasons = {.n = 3, .name = {"long_scoreboard", "lg_throttle", "selected"}};
    struct stall_summary s;
    struct error e = {0};
    const uint64_t load_line[3] = {11520, 250000, 0}, fma_line[3] = {0, 5853, 6000};
    stall_add(&c, "_Z17naive_uncoalescedv", "naive.cu", 20, load_line, 3, &e);
    stall_add(&c, "_Z17naive_uncoalescedv", "naive.cu", 21, fma_line, 3, &e);
    stall_summarize(&c, &reasons, &s);
    assert_int_equal(s.samples, 273373);
    assert_string_equal(s.top_reason, "lg_throttle");
    assert_float_equal(s.top_pct, 100.0 * 255853 / 273373, 1e-9);
    assert_float_equal(s.wall_ms, 380.0, 0.0);
    stall_call_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cupti_names_lose_their_prefix),
        cmocka_unit_test(not_issued_subsets_are_left_out),
        cmocka_unit_test(an_unknown_name_is_kept_whole),
        cmocka_unit_test(the_period_follows_the_kernel_time),
        cmocka_unit_test(the_period_stays_in_cuptis_range),
        cmocka_unit_test(instructions_of_a_line_add_up),
        cmocka_unit_test(the_same_line_of_two_kernels_stays_apart),
        cmocka_unit_test(nothing_sampled_has_no_top_reason),
        cmocka_unit_test(the_summary_names_the_top_reason_and_its_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
