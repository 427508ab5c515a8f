/*
 * The steady state on a GPU (issue 47): program_ramp.cu copies from 2^8 to 2^26 floats, one launch each, every
 * launch profiled. The launches of a few microseconds (the smallest on one block, whose L1 figure read 144 % of its
 * "peak" on an H200) get no rates: limiter "no steady state", first finding launch_overhead; the largest, about
 * 200 us, gets its limiter; no launch prints a figure above 100 % or a gain of 100 %. Skipped, never passed, without a
 * GPU.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/csv/reader.h"
#include "../support/build_dir.h"
#include "../support/gpu_present.h"
#include "../support/peak_figures.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"

static char scratch[] = "/tmp/memscope-steady-XXXXXX";
static struct outcome o;
static struct csv_table summary;

static int setup(void **state)
{
    (void)state;
    struct error e = {0};
    char path[256];
    if (!mkdtemp(scratch))
        return -1;
    if (!gpu_present())
        return 0;
    shell(&o, "%s/memscope-profile --launch-count-per-kernel 0 -o %s/ramp -- %s/tests/diagnose/program_ramp",
          build_dir(), scratch, build_dir());
    snprintf(path, sizeof path, "%s/ramp/summary.csv", scratch);
    if (o.exit_code != 0 || csv_table_read(path, &summary, &e) != 0) {
        fprintf(stderr, "memscope-profile exited %d: %s\n%s\n", o.exit_code, e.message, o.output);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (summary.rows)
        csv_table_free(&summary);
    return remove_tree(scratch);
}

static const char *cell(int row, const char *column)
{
    int c = csv_table_column_or_none(&summary, column);
    assert_true(c >= 0);
    return csv_table_text(&summary, row, c);
}

/* The row of launch #k of ramp_copy (launch k copies 2^(8 + 2k) floats). */
static int launch_row(int k)
{
    char suffix[16];
    snprintf(suffix, sizeof suffix, " #%d", k);
    for (int row = 0; row < summary.rows; ++row) {
        const char *variant = cell(row, "variant");
        size_t n = strlen(variant), m = strlen(suffix);
        if (strstr(variant, "ramp_copy") && n > m && strcmp(variant + n - m, suffix) == 0)
            return row;
    }
    fail_msg("no row for ramp_copy #%d", k);
    return -1;
}

static void the_shortest_launches_get_no_rates(void **state)
{
    (void)state;
    if (!gpu_present())
        skip();
    for (int k = 0; k < 4; ++k) { /* 2^8 to 2^14 floats: a few microseconds, the launch's own cost */
        int row = launch_row(k);
        assert_string_equal(cell(row, "limiter"), "no steady state");
        assert_string_equal(cell(row, "first_finding"), "launch_overhead");
        assert_non_null(strstr(cell(row, "evidence"), "withheld"));
    }
    int largest = launch_row(9); /* 2^26 floats, about 200 us */
    assert_string_not_equal(cell(largest, "limiter"), "no steady state");
    assert_string_not_equal(cell(largest, "limiter"), "not collected");
}

static void no_launch_prints_a_figure_above_a_peak(void **state)
{
    (void)state;
    static struct findings f;
    if (!gpu_present())
        skip();
    for (int row = 0; row < summary.rows; ++row) {
        const char *gain = cell(row, "first_finding_gain_pct");
        check_figures(&f, cell(row, "variant"), cell(row, "evidence"), *gain ? atof(gain) : 0.0);
    }
    expect_none(&f, "no launch of the ramp prints a figure above 100 % or a gain of 100 %");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_shortest_launches_get_no_rates),
        cmocka_unit_test(no_launch_prints_a_figure_above_a_peak),
    };
    return cmocka_run_group_tests_name("steady_state_gpu", tests, setup, teardown);
}
