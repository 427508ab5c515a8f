/*
 * Values of summary.csv that no run writes: every program that reads a results folder (the report's data, the
 * comparison, the history) refuses them alike, exit 2, naming the file, the line and the column, whether or not
 * it draws that column. Needs no gnuplot: memscope-report-data is run directly.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../support/rewrite_csv.h"
#include "../support/run_shell.h"

#define FIXTURE "tests/fixtures/report-run"

static char workdir[] = "/tmp/memscope-report-values-XXXXXX";
static char damaged[128];

static const char *program(const char *variable, const char *fallback)
{
    const char *path = getenv(variable);
    return path ? path : fallback;
}

/* The column and the value the next damage_first_row writes into the first row (line 2). */
static const char *damaged_column, *damaged_value;

static void damage_first_row(const struct csv_table *t, int row, char **fields)
{
    for (int c = 0; row == 0 && c < t->columns; ++c)
        if (!strcmp(t->header[c], damaged_column))
            snprintf(fields[c], 256, "%s", damaged_value);
}

/* A copy of the fixture whose summary holds value in column, on line 2. */
static void damage_summary(const char *column, const char *value)
{
    static struct outcome o;
    shell(&o, "rm -rf %s && cp -r %s %s", damaged, FIXTURE, damaged);
    assert_int_equal(o.exit_code, 0);
    damaged_column = column;
    damaged_value = value;
    rewrite_csv(damaged, "summary.csv", damage_first_row);
}

static void expect_every_reader_refuses(const char *message)
{
    static struct outcome o;
    const char *report = program("MEMSCOPE_REPORT_DATA", "build/memscope-report-data");
    const char *compare = program("MEMSCOPE_COMPARE", "build/memscope-compare");
    const char *history = program("MEMSCOPE_HISTORY", "build/memscope-history");
    char commands[3][512];
    snprintf(commands[0], sizeof commands[0], "mkdir -p %s/data && %s %s %s/data", workdir, report, damaged, workdir);
    snprintf(commands[1], sizeof commands[1], "%s %s %s", compare, FIXTURE, damaged);
    snprintf(commands[2], sizeof commands[2], "%s add %s/history.csv %s", history, workdir, damaged);
    for (int i = 0; i < 3; ++i) {
        shell(&o, "%s", commands[i]);
        if (o.exit_code != 2 || !strstr(o.output, message))
            fail_msg("%s: expected exit 2 and \"%s\"; got %d:\n%s", commands[i], message, o.exit_code, o.output);
    }
}

static void a_negative_time_is_refused_by_every_reader(void **state)
{
    (void)state;
    damage_summary("median_ms", "-0.35");
    expect_every_reader_refuses("summary.csv:2: column 'median_ms' holds '-0.35', but a time must be positive");
    damage_summary("min_ms", "0");
    expect_every_reader_refuses("summary.csv:2: column 'min_ms' holds '0', but a time must be positive");
}

static void a_word_in_a_number_column_is_refused_by_every_reader(void **state)
{
    (void)state;
    damage_summary("stdev_ms", "abc");
    expect_every_reader_refuses("summary.csv:2: column 'stdev_ms' holds 'abc', not a number");
    damage_summary("global_load_efficiency_pct", "high");
    expect_every_reader_refuses("summary.csv:2: column 'global_load_efficiency_pct' holds 'high', not a number");
}

static void the_fixture_itself_is_read_by_every_reader(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "mkdir -p %s/data && %s %s %s/data && %s %s %s", workdir,
          program("MEMSCOPE_REPORT_DATA", "build/memscope-report-data"), FIXTURE, workdir,
          program("MEMSCOPE_COMPARE", "build/memscope-compare"), FIXTURE, FIXTURE);
    if (o.exit_code)
        fail_msg("%s", o.output);
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
        cmocka_unit_test(a_negative_time_is_refused_by_every_reader),
        cmocka_unit_test(a_word_in_a_number_column_is_refused_by_every_reader),
        cmocka_unit_test(the_fixture_itself_is_read_by_every_reader),
    };
    return cmocka_run_group_tests_name("report_values", tests, setup, teardown);
}
