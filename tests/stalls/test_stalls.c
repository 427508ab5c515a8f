/*
 * The stalls room without a GPU: CUPTI's reason names, the sampling period and launches chosen per call, and the
 * samples gathered per line and kernel. The reason names are those CUPTI 13.0 gave on an H100; the last test's kernel
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

/* A width's calls share its longest kernel's period. At 132 SMs and 1755 MHz (231.66 M SM cycles a ms): 35.3 ms
 * (naive_uncoalesced at W = 2048) takes 2^15 on its own, 249,560 samples a launch; 2.7 ms would take 2^12 but gives
 * 19,088 samples at 2^15, so 2 launches reach 25,000; 0.344 ms would take 2^9 and gives 2,432 at 2^15: 11 launches
 * (3.8 ms, where a change of period costs about 350). The longest is sampled first. */
static void a_width_shares_its_longest_kernels_period(void **state)
{
    (void)state;
    const double ms[] = {0.344, 35.3, 2.7};
    unsigned period[3], launches[3];
    int order[3];
    stall_schedule(ms, 3, 132, 1755.0, 0, period, launches, order);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(period[i], 15);
    assert_int_equal(launches[0], 11);
    assert_int_equal(launches[1], 1);
    assert_int_equal(launches[2], 2);
    assert_int_equal(order[0], 1);
    assert_int_equal(order[1], 2);
    assert_int_equal(order[2], 0);
}

/* A 20 s kernel takes 2^24, at which a 0.5 ms kernel gives 6.9 samples a launch: 3,622 launches, 1.8 s, cost more
 * than changing the period, so it gets its own, 2^9 (226,230 samples in one launch). */
static void launches_dearer_than_a_change_of_period_are_not_made(void **state)
{
    (void)state;
    const double ms[] = {20000.0, 0.5};
    unsigned period[2], launches[2];
    int order[2];
    stall_schedule(ms, 2, 132, 1755.0, 0, period, launches, order);
    assert_int_equal(period[0], 24);
    assert_int_equal(launches[0], 1);
    assert_int_equal(period[1], 9);
    assert_int_equal(launches[1], 1);
}

/* The next width keeps the period in use. 35.3 ms at 2^12, where the previous width sampled, gives 1,996,484
 * samples (at most 2.5 million): kept, instead of its own 2^15, and 2.7 ms gives 152,706 there, one launch. A
 * 300 ms kernel would give 16,967,285 at 2^12: it takes its own, 2^18. A coarser period in use is kept where the
 * launches it needs are cheap: 4.4 ms gives 31,106 samples at 2^15, one launch. With none in use, the own. */
static void the_next_width_keeps_the_period_in_use_where_it_can(void **state)
{
    (void)state;
    const double ms[] = {35.3, 2.7}, long_one[] = {300.0}, short_one[] = {4.4};
    unsigned period[2], launches[2];
    int order[2];
    stall_schedule(ms, 2, 132, 1755.0, 12, period, launches, order);
    assert_int_equal(period[0], 12);
    assert_int_equal(period[1], 12);
    assert_int_equal(launches[0], 1);
    assert_int_equal(launches[1], 1);
    stall_schedule(long_one, 1, 132, 1755.0, 12, period, launches, order);
    assert_int_equal(period[0], 18);
    stall_schedule(short_one, 1, 132, 1755.0, 15, period, launches, order);
    assert_int_equal(period[0], 15);
    assert_int_equal(launches[0], 1);
    stall_schedule(short_one, 1, 132, 1755.0, 0, period, launches, order);
    assert_int_equal(period[0], 12);
}

/* Below 2^9 the hardware drops samples, so a kernel too short for 25,000 at 2^9 is launched again: 0.02 ms gives
 * 9,049 a launch, 3 launches; the launches stay between 1 and STALL_MAX_LAUNCHES whatever the time. */
static void a_kernel_too_short_for_the_shortest_period_is_launched_again(void **state)
{
    (void)state;
    assert_int_equal(stall_launches(0.02, 9, 132, 1755.0), 3);
    assert_int_equal(stall_launches(0.0, 9, 132, 1755.0), 1);
    assert_int_equal(stall_launches(1e-9, 9, 132, 1755.0), STALL_MAX_LAUNCHES);
    assert_int_equal(stall_launches(1000.0, 9, 132, 1755.0), 1);
}

/* A grid that leaves SMs without warps gives fewer samples than its time predicts (icache_fit's 32 blocks at
 * W = 1024 on 132 SMs): 3 launches that gave 6,071 samples in 0.57 ms give 2,023.7 a launch, so 13 reach 25,000,
 * 10 more (1.9 ms). None are added when the samples are enough, when there are none to go by, or when they would
 * take longer than a change of period (2,499 more of 400 ms); at most STALL_MAX_LAUNCHES in all. */
static void launches_that_gave_too_few_samples_are_followed_by_more(void **state)
{
    (void)state;
    assert_int_equal(stall_more_launches(3, 6071, 0.57), 10);
    assert_int_equal(stall_more_launches(1, 30000, 1.0), 0);
    assert_int_equal(stall_more_launches(2, 0, 1.0), 0);
    assert_int_equal(stall_more_launches(1, 10, 400.0), 0);
    assert_int_equal(stall_more_launches(1, 1, 0.001), STALL_MAX_LAUNCHES - 1);
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
        cmocka_unit_test(a_width_shares_its_longest_kernels_period),
        cmocka_unit_test(launches_dearer_than_a_change_of_period_are_not_made),
        cmocka_unit_test(the_next_width_keeps_the_period_in_use_where_it_can),
        cmocka_unit_test(a_kernel_too_short_for_the_shortest_period_is_launched_again),
        cmocka_unit_test(launches_that_gave_too_few_samples_are_followed_by_more),
        cmocka_unit_test(instructions_of_a_line_add_up),
        cmocka_unit_test(the_same_line_of_two_kernels_stays_apart),
        cmocka_unit_test(nothing_sampled_has_no_top_reason),
        cmocka_unit_test(the_summary_names_the_top_reason_and_its_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
