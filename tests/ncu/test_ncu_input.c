/*
 * What the Nsight Compute comparisons refuse, and how they answer a user's --help:
 *   - a value of a results folder outside its column's limit (harness/results/value_limits.h) is refused by
 *     compare-ncu and compare-ncu-stalls with the words memscope-compare uses for the same file, exit 2: both ask
 *     memscope-report-data --check, so the limits have one definition;
 *   - compare-ncu given ncu's run of the suite for a program's profile, or a CSV cut short, says so, exit 2 (bad
 *     input), not 1 (a disagreement); an unknown option is named as one;
 *   - each comparison answers -h and --help, wherever they stand, with its description on stdout, exit 0.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../support/rewrite_csv.h"
#include "../support/run_shell.h"

#define RUN_FIXTURE "tests/fixtures/report-run"
#define PROFILE_FIXTURE "tests/fixtures/profile-small"
#define NCU_FIXTURE "tests/fixtures/ncu-tiled_transposed-W1024.csv"
#define SUITE_NCU_FIXTURE "tests/fixtures/ncu-suite-W64.csv"
#define SOURCE_PAGE_FIXTURE "tests/fixtures/ncu-icache_fit-W256.csv"

static char workdir[] = "/tmp/memscope-ncu-input-XXXXXX";
static char damaged[128];

static const char *const scripts[] = {"scripts/compare-ncu", "scripts/compare-ncu-lines", "scripts/compare-ncu-stalls"};

static const char *compare_bin(void)
{
    const char *path = getenv("MEMSCOPE_COMPARE");
    return path ? path : "build/memscope-compare";
}

static void expect(const struct outcome *o, int exit_code, const char *text)
{
    if (o->exit_code != exit_code || !strstr(o->output, text))
        fail_msg("expected exit %d and \"%s\"; got %d:\n%s", exit_code, text, o->exit_code, o->output);
}

static int damaged_row;
static const char *damaged_value;

static void damage_value(const struct csv_table *t, int row, char **fields)
{
    for (int c = 0; row == damaged_row && c < t->columns; ++c)
        if (!strcmp(t->header[c], "value") || !strcmp(t->header[c], "samples"))
            snprintf(fields[c], 256, "%s", damaged_value);
}

/* A copy of the suite's fixture with a stalls.csv, value written into file's row (line row + 2). */
static void damage(const char *file, int row, const char *value)
{
    static struct outcome o;
    shell(&o, "rm -rf %s && cp -r %s %s && printf '%s' > %s/stalls.csv", damaged, RUN_FIXTURE, damaged,
          "variant,precision,width,kernel,file,line,source,reason,samples\\n"
          "naive,fp32,1024,naive_kernel,kernels/lessons/naive.cu,12,acc,long_scoreboard,75\\n",
          damaged);
    assert_int_equal(o.exit_code, 0);
    damaged_row = row;
    damaged_value = value;
    rewrite_csv(damaged, file, damage_value);
}

/* memscope-compare's refusal of the damaged copy, without its name: the message the script must print. */
static const char *compare_refusal(void)
{
    static struct outcome o;
    shell(&o, "%s %s %s", compare_bin(), RUN_FIXTURE, damaged);
    assert_int_equal(o.exit_code, 2);
    const char *prefix = "memscope-compare: ";
    char *at = strstr(o.output, prefix);
    assert_non_null(at);
    at += strlen(prefix);
    at[strcspn(at, "\n")] = '\0';
    return at;
}

static void a_value_the_readers_refuse_is_refused_alike_by_the_scripts(void **state)
{
    (void)state;
    static struct outcome o;
    const char *values[] = {"-40000", "lots", "1e300"};
    for (size_t i = 0; i < sizeof values / sizeof *values; ++i) {
        damage("metrics.csv", 23, values[i]); /* line 25: naive's dram__bytes_read.sum, in byte */
        const char *message = compare_refusal();
        shell(&o, "scripts/compare-ncu %s/metrics.csv %s", damaged, NCU_FIXTURE);
        expect(&o, 2, message);
    }
    damage("stalls.csv", 0, "-3");
    const char *message = compare_refusal();
    assert_non_null(strstr(message, "stalls.csv:2: column 'samples' holds '-3', but a count must be 0 or more"));
    shell(&o, "scripts/compare-ncu-stalls %s/stalls.csv %s", damaged, SOURCE_PAGE_FIXTURE);
    expect(&o, 2, message);
}

static void compare_ncu_refuses_the_suites_ncu_run_for_a_programs_profile(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "scripts/compare-ncu %s %s", PROFILE_FIXTURE, SUITE_NCU_FIXTURE);
    expect(&o, 2, "ncu's run of memscope's suite (its launches are in memscope's NVTX ranges), not of a program");
}

static void compare_ncu_says_a_csv_cut_short_is_truncated(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "head -c 2000 %s > %s/cut.csv && printf 'x,y\\n' >> %s/cut.csv && "
              "scripts/compare-ncu %s/metrics.csv %s/cut.csv",
          NCU_FIXTURE, workdir, workdir, RUN_FIXTURE, workdir);
    expect(&o, 2, "fields where the header has 17 (a truncated file, or not ncu's --csv raw page?)");
    shell(&o, "head -c 2000 %s > %s/cut.csv && scripts/compare-ncu %s/metrics.csv %s/cut.csv", NCU_FIXTURE, workdir,
          RUN_FIXTURE, workdir);
    expect(&o, 2, "cut.csv: the last line has no line end (a truncated file?)");
}

/* A file checked alone must have the columns its readers look up, as in its folder: a summary.csv whose median_ms
 * is renamed, and a file of two columns of its own given as one, are refused by name. */
static void a_file_checked_alone_needs_the_columns_its_readers_need(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "sed '1s/,median_ms,/,middle_ms,/' %s/summary.csv > %s/summary.csv && "
              "build/memscope-report-data --check %s/summary.csv",
          RUN_FIXTURE, workdir, workdir);
    expect(&o, 2, "median_ms");
    shell(&o, "printf 'hello,world\\n1,2\\n' > %s/g.csv && "
              "build/memscope-report-data --check --as samples.csv %s/g.csv",
          workdir, workdir);
    expect(&o, 2, "variant");
    shell(&o, "build/memscope-report-data --check %s/summary.csv && build/memscope-report-data --check %s/metrics.csv",
          RUN_FIXTURE, RUN_FIXTURE);
    expect(&o, 0, "");
}

static void an_unknown_option_is_named_as_one(void **state)
{
    (void)state;
    static struct outcome o;
    for (size_t i = 0; i < sizeof scripts / sizeof *scripts; ++i) {
        shell(&o, "%s --bogus a b", scripts[i]);
        expect(&o, 2, "unknown option --bogus\nusage: ");
    }
}

/* Standard error is dropped: the text must come on standard output. */
static void every_comparison_answers_help_on_stdout(void **state)
{
    (void)state;
    static struct outcome o;
    const char *asks[] = {"-h", "--help", "a b --help"};
    for (size_t i = 0; i < sizeof scripts / sizeof *scripts; ++i)
        for (size_t j = 0; j < sizeof asks / sizeof *asks; ++j) {
            shell(&o, "%s %s 2>/dev/null", scripts[i], asks[j]);
            expect(&o, 0, "Compare memscope's ");
        }
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(workdir))
        return -1;
    snprintf(damaged, sizeof damaged, "%s/run", workdir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_value_the_readers_refuse_is_refused_alike_by_the_scripts),
        cmocka_unit_test(compare_ncu_refuses_the_suites_ncu_run_for_a_programs_profile),
        cmocka_unit_test(compare_ncu_says_a_csv_cut_short_is_truncated),
        cmocka_unit_test(a_file_checked_alone_needs_the_columns_its_readers_need),
        cmocka_unit_test(an_unknown_option_is_named_as_one),
        cmocka_unit_test(every_comparison_answers_help_on_stdout),
    };
    return cmocka_run_group_tests_name("ncu_input", tests, setup, teardown);
}
