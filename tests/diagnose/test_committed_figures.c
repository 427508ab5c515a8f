/*
 * Issue 47's rule over what memscope committed: the reference run (what a newcomer without a GPU renders), its
 * validation (the corpus) and the program profiles under reports/ hold no limiter evidence and no finding whose
 * figures read above 100 %, and no estimated gain of 100 % or more. Runs without a GPU, over the files as committed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "../../harness/csv/reader.h"
#include "../support/peak_figures.h"

/* Every row of a CSV file's text column (and its gain column, where named) by the rule; a file that is not there
 * fails: the committed folders all have theirs. */
static void check_file(struct findings *f, const char *path, const char *text_column, const char *gain_column)
{
    struct csv_table t;
    struct error e = {0};
    if (csv_table_read(path, &t, &e) != 0)
        fail_msg("%s: %s", path, e.message);
    int text = csv_table_column_or_none(&t, text_column), gain = gain_column ? csv_table_column_or_none(&t, gain_column)
                                                                              : -1;
    if (text < 0)
        fail_msg("%s has no column %s", path, text_column);
    for (int row = 0; row < t.rows; ++row) {
        double g = 0.0;
        char where[512];
        if (gain >= 0 && *csv_table_text(&t, row, gain))
            csv_table_real(&t, row, gain, &g, &e);
        snprintf(where, sizeof where, "%s:%d", path, t.line[row]);
        check_figures(f, where, csv_table_text(&t, row, text), g);
    }
    csv_table_free(&t);
}

static void the_reference_run_reads_no_figure_above_a_peak(void **state)
{
    (void)state;
    static struct findings f;
    check_file(&f, "reports/reference/summary.csv", "evidence", "first_finding_gain_pct");
    check_file(&f, "reports/reference/findings.csv", "evidence", "estimated_gain_pct");
    expect_none(&f, "the reference run prints no figure above 100 % and no gain of 100 %");
}

static void the_corpus_reads_no_figure_above_a_peak(void **state)
{
    (void)state;
    static struct findings f;
    check_file(&f, "reports/reference/validate/findings.csv", "evidence", "estimated_gain_pct");
    check_file(&f, "reports/reference/validate/validate.csv", "found_cause", "estimated_gain_pct");
    expect_none(&f, "the corpus's findings print no figure above 100 % and no gain of 100 %");
}

static void the_committed_profiles_read_no_figure_above_a_peak(void **state)
{
    (void)state;
    static struct findings f;
    static const char *const profiles[] = {"reports/profile-torch-h100", "reports/profile-torch-bf16-h100",
                                           "reports/trace-h100"};
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; ++i) {
        char path[256];
        snprintf(path, sizeof path, "%s/summary.csv", profiles[i]);
        check_file(&f, path, "evidence", "first_finding_gain_pct");
    }
    expect_none(&f, "the committed profiles print no figure above 100 % and no gain of 100 %");
}

/* The rule itself, so that it is seen to catch what it must. */
static void the_rule_catches_a_ramp_and_a_whole_kernel(void **state)
{
    (void)state;
    static struct findings f;
    check_figures(&f, "ramp", "L1/shared at 240 % of peak", 30.0);
    check_figures(&f, "gain", "global stores use 12.5 % of the bytes", 100.0);
    check_figures(&f, "fine", "DRAM at 100 % of peak; sectors +350 % against the base", 99.9);
    assert_int_equal(f.count, 2);
    assert_non_null(strstr(f.text, "ramp: \"240 % of peak"));
    assert_non_null(strstr(f.text, "gain: an estimated gain of 100 %"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_rule_catches_a_ramp_and_a_whole_kernel),
        cmocka_unit_test(the_reference_run_reads_no_figure_above_a_peak),
        cmocka_unit_test(the_corpus_reads_no_figure_above_a_peak),
        cmocka_unit_test(the_committed_profiles_read_no_figure_above_a_peak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
