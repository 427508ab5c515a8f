/*
 * Issue 47's rule over what memscope prints for what it committed: the report's tables of the reference run (what a
 * newcomer without a GPU renders: its diagnosis page and its corpus page) and of the program profiles under reports/
 * and among the tests' fixtures (their kernels pages) hold no limiter, finding or evidence whose figures read above
 * 100 %, and no estimated gain that reads 100 % or more. The report applies today's rules to the counters a folder
 * stored, so a folder taken before the rules changed is held to them too. Runs without a GPU.
 */
#define _XOPEN_SOURCE 700
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#define FIXTURE "reports/reference"
#include "../support/page_data.h"

#include "../support/peak_figures.h"

/* The first "est. N" whose N reads 100 or more, or NULL. */
static const char *printed_gain_of_100(const char *text)
{
    for (const char *at = strstr(text, "est. "); at; at = strstr(at + 1, "est. "))
        if (atof(at + 5) >= 100.0)
            return at;
    return NULL;
}

/* Every line of the tables of data_dir that match pattern, by the rule. */
static void check_tables(struct findings *f, const char *folder, const char *pattern)
{
    char path[256], line[8192];
    glob_t g;
    snprintf(path, sizeof path, "%s/%s", data_dir, pattern);
    if (glob(path, 0, NULL, &g) != 0)
        fail_msg("the report of %s wrote no %s", folder, pattern);
    for (size_t i = 0; i < g.gl_pathc; ++i) {
        FILE *t = fopen(g.gl_pathv[i], "r");
        assert_non_null(t);
        for (int n = 1; fgets(line, sizeof line, t); ++n) {
            char where[512];
            snprintf(where, sizeof where, "%s: %s:%d", folder, strrchr(g.gl_pathv[i], '/') + 1, n);
            check_figures(f, where, line, 0.0);
            if (printed_gain_of_100(line))
                note(f, "%s: a gain that reads 100 %% or more: %s", where, line);
        }
        fclose(t);
    }
    globfree(&g);
}

/* The tables of one committed folder's report that match pattern, by the rule. */
static void expect_printed_clean(const char *folder, const char *pattern, const char *what)
{
    static struct findings f;
    memset(&f, 0, sizeof f);
    write_data(folder);
    check_tables(&f, folder, pattern);
    expect_none(&f, what);
}

static void the_reference_run_prints_no_figure_above_a_peak(void **state)
{
    (void)state;
    expect_printed_clean(FIXTURE, "diagnosis.tsv",
                         "the reference run's diagnosis prints no figure above 100 % and no gain of 100 %");
}

static void the_corpus_prints_no_figure_above_a_peak(void **state)
{
    (void)state;
    expect_printed_clean(FIXTURE, "validate-*.tsv",
                         "the corpus's first findings print no figure above 100 % and no gain of 100 %");
}

static void the_committed_profiles_print_no_figure_above_a_peak(void **state)
{
    (void)state;
    expect_printed_clean("reports/profile-torch-h100", "kernels-*.tsv",
                         "the committed torch profile's kernels print no figure above 100 % and no gain of 100 %");
    expect_printed_clean("reports/profile-torch-bf16-h100", "kernels-*.tsv",
                         "the committed bf16 profile's kernels print no figure above 100 % and no gain of 100 %");
    /* the same two programs profiled again on an H200 at cffaf3b, the SM's resources stored beside the ceilings */
    expect_printed_clean("reports/profile-torch-h200", "kernels-*.tsv",
                         "the H200 torch profile's kernels print no figure above 100 % and no gain of 100 %");
    expect_printed_clean("reports/profile-torch-bf16-h200", "kernels-*.tsv",
                         "the H200 bf16 profile's kernels print no figure above 100 % and no gain of 100 %");
}

/* The real programs' profiles the tests keep as fixtures: training scripts under torchrun on two H100s (DDP, NCCL,
 * torch.compile's Triton kernels) and the line profiles of a CUDA program and a compiled training step on an H200. */
static void the_committed_program_fixtures_print_no_figure_above_a_peak(void **state)
{
    (void)state;
    static const char *const fixtures[] = {
        "tests/fixtures/profile-ddp-h100",         "tests/fixtures/profile-ddp-nccl-h100",
        "tests/fixtures/profile-ddp-compile-h100", "tests/fixtures/profile-lines-h200",
        "tests/fixtures/profile-train-lines-h200",
    };
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; ++i)
        expect_printed_clean(fixtures[i], "kernels-*.tsv",
                             "a real program's committed profile prints no figure above 100 % and no gain of 100 %");
}

/* A folder whose stored counters read above a peak (naive's L1 at 240 % at W = 4096, planted in a copy of the
 * reference run) is rendered by today's rules: no steady state, and the figure is not printed. */
static void a_stored_figure_above_a_peak_is_not_printed(void **state)
{
    (void)state;
    static struct findings f;
    copy_fixture_and("awk -F, -v OFS=, '$1 == \"naive\" && $3 == 4096 && ($(NF-5) == \"sol_l1_pct\" || "
                     "$(NF-5) == \"l1tex__throughput.avg.pct_of_peak_sustained_active\") { $(NF-4) = 240 } 1' "
                     "$R/metrics.csv > $R/m && mv $R/m $R/metrics.csv");
    write_data(scratch);
    check_tables(&f, "the planted copy", "diagnosis.tsv");
    expect_none(&f, "a stored figure above a peak is not printed");
    const char *t = strstr(data_file("diagnosis.tsv"), "\tnaive\t");
    assert_non_null(t);
    assert_true(strncmp(t, "\tnaive\tno steady state\t", strlen("\tnaive\tno steady state\t")) == 0);
    assert_non_null(strstr(t, "L1/shared read above its peak"));
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
    assert_non_null(printed_gain_of_100("l1_bound (est. 100 %, global)"));
    assert_null(printed_gain_of_100("latency_bound (est. 99.5 %, global)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_rule_catches_a_ramp_and_a_whole_kernel),
        cmocka_unit_test(the_reference_run_prints_no_figure_above_a_peak),
        cmocka_unit_test(the_committed_program_fixtures_print_no_figure_above_a_peak),
        cmocka_unit_test(the_corpus_prints_no_figure_above_a_peak),
        cmocka_unit_test(the_committed_profiles_print_no_figure_above_a_peak),
        cmocka_unit_test(a_stored_figure_above_a_peak_is_not_printed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
