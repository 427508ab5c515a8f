/*
 * Values of a results folder that no run writes (summary.csv, samples.csv, metrics.csv): every program that reads a
 * results folder (the report's data, the comparison, the history) refuses them alike, exit 2, naming the file, the
 * line, the column, the value and its limit (harness/results/value_limits.h), whether or not it draws that column.
 * Needs no gnuplot: memscope-report-data is run directly.
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

#include "../../harness/profile/metric_catalog.h"
#include "../../harness/results/value_limits.h"
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

/* The column, the value and the row (0: line 2) the next damage_row writes. */
static const char *damaged_column, *damaged_value;
static int damaged_row;

static void damage_row(const struct csv_table *t, int row, char **fields)
{
    for (int c = 0; row == damaged_row && c < t->columns; ++c)
        if (!strcmp(t->header[c], damaged_column))
            snprintf(fields[c], 256, "%s", damaged_value);
}

/* A copy of the fixture whose file holds value in column, in the row on line row + 2. */
static void damage(const char *file, int row, const char *column, const char *value)
{
    static struct outcome o;
    shell(&o, "rm -rf %s && cp -r %s %s", damaged, FIXTURE, damaged);
    assert_int_equal(o.exit_code, 0);
    damaged_column = column;
    damaged_value = value;
    damaged_row = row;
    rewrite_csv(damaged, file, damage_row);
}

static void damage_summary(const char *column, const char *value)
{
    damage("summary.csv", 0, column, value);
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

/* Numbers no measurement gives, which the report drew (a 63-digit median across the summary's columns). */
static void a_value_beyond_its_columns_limit_is_refused_by_every_reader(void **state)
{
    (void)state;
    damage_summary("median_ms", "1e308");
    expect_every_reader_refuses("summary.csv:2: column 'median_ms' holds '1e308', but a time must be positive, at "
                                "most 86400000 ms (a day)");
    damage_summary("gflops", "-5000");
    expect_every_reader_refuses("summary.csv:2: column 'gflops' holds '-5000', but a rate must be from 0 to 10000000 "
                                "GFLOP/s");
    damage_summary("dram_gbs", "1e300");
    expect_every_reader_refuses("summary.csv:2: column 'dram_gbs' holds '1e300', but a bandwidth must be from 0 to "
                                "1000000 GB/s");
    damage_summary("achieved_occupancy_pct", "2500");
    expect_every_reader_refuses("summary.csv:2: column 'achieved_occupancy_pct' holds '2500', but a percentage must "
                                "be from 0 to 1000");
}

/* The same value as median_ms and as a sample: refused alike (samples.csv was read by the comparison and the
 * report as it was). */
static void a_negative_sample_is_refused_by_every_reader(void **state)
{
    (void)state;
    damage("samples.csv", 1, "time_ms", "-0.35");
    expect_every_reader_refuses("samples.csv:3: column 'time_ms' holds '-0.35', but a time must be positive");
}

/* A metric's value is held to its unit's limit: a negative DRAM byte count was compared as "-513484.82 %"; a word
 * was refused by the comparison but drawn by the report. Line 25 is naive's dram__bytes_read.sum, in byte. */
static void a_metric_outside_its_units_limit_is_refused_by_every_reader(void **state)
{
    (void)state;
    damage("metrics.csv", 23, "value", "-40000");
    expect_every_reader_refuses("metrics.csv:25: column 'value' holds '-40000' (metric 'dram__bytes_read.sum', unit "
                                "'byte'), but a count must be 0 or more");
    damage("metrics.csv", 0, "value", "lots");
    expect_every_reader_refuses("metrics.csv:2: column 'value' holds 'lots', not a number");
    damage("metrics.csv", 0, "value", "1800");
    expect_every_reader_refuses("metrics.csv:2: column 'value' holds '1800' (metric "
                                "'smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct', unit 'percent'), "
                                "but a percentage must be from 0 to 1000");
}

/* A file of the folder given for the folder is named as what it is, not as a folder that is missing. */
static void a_file_given_as_the_folder_is_said_not_to_be_a_folder(void **state)
{
    (void)state;
    static struct outcome o;
    damage_summary("variant", "naive"); /* an untouched copy */
    snprintf(damaged + strlen(damaged), sizeof damaged - strlen(damaged), "/summary.csv");
    expect_every_reader_refuses("run/summary.csv: not a folder (a results folder is the folder memscope wrote, not "
                                "a file in it)");
    shell(&o, "%s %s %s", program("MEMSCOPE_COMPARE", "build/memscope-compare"), damaged, FIXTURE);
    if (o.exit_code != 2 || !strstr(o.output, "run/summary.csv: not a folder"))
        fail_msg("the base: expected exit 2 and \"not a folder\"; got %d:\n%s", o.exit_code, o.output);
    snprintf(damaged, sizeof damaged, "%s/run", workdir);
}

static void a_word_in_a_number_column_is_refused_by_every_reader(void **state)
{
    (void)state;
    damage_summary("stdev_ms", "abc");
    expect_every_reader_refuses("summary.csv:2: column 'stdev_ms' holds 'abc', not a number");
    damage_summary("global_load_efficiency_pct", "high");
    expect_every_reader_refuses("summary.csv:2: column 'global_load_efficiency_pct' holds 'high', not a number");
}

/* Every unit the catalog derives has its limit: the derived unit "op" (int8 tensor operations) had none, and a
 * negative count of them passed every reader. */
static void every_derived_unit_has_its_limit(void **state)
{
    (void)state;
    for (int i = 0; i < DERIVED_METRIC_COUNT; ++i)
        if (value_limit_of_unit(derived_metric_unit((enum derived_metric_id)i)) == LIMIT_NUMBER)
            fail_msg("%s: its unit '%s' has no limit", derived_metric_name((enum derived_metric_id)i),
                     derived_metric_unit((enum derived_metric_id)i));
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
        cmocka_unit_test(a_value_beyond_its_columns_limit_is_refused_by_every_reader),
        cmocka_unit_test(a_negative_sample_is_refused_by_every_reader),
        cmocka_unit_test(a_metric_outside_its_units_limit_is_refused_by_every_reader),
        cmocka_unit_test(a_file_given_as_the_folder_is_said_not_to_be_a_folder),
        cmocka_unit_test(every_derived_unit_has_its_limit),
        cmocka_unit_test(the_fixture_itself_is_read_by_every_reader),
    };
    return cmocka_run_group_tests_name("report_values", tests, setup, teardown);
}
