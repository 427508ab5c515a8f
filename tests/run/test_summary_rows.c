/*
 * The rows of summary.csv as a run fills them from its jobs (harness/run/summary_rows.c), with no GPU: the share of
 * the run's measured FP32 ceiling, fp32_roof_pct, is the row's gflops over that ceiling, for FP32 variants only, and
 * empty where the run measured no ceiling.
 */
#define _XOPEN_SOURCE 700
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../../harness/results/schema.h"
#include "../../harness/run/summary_rows.h"

static char dir[] = "/tmp/memscope-test-summary-rows-XXXXXX";

/* A job that passed its check, timed once at median_ms. */
static void timed_job(struct job_result *r, const char *variant, int width, double median_ms)
{
    memset(r, 0, sizeof *r);
    r->variant = matmul_find(variant);
    assert_non_null(r->variant);
    r->width = width;
    r->reference = "cublas_fp64";
    r->check.passed = r->recheck.passed = r->passed = true;
    r->timing.n = 1;
    r->timing.stop_reason = "converged";
    r->timing.stats.median = median_ms;
}

/* summary.csv's fp32_roof_pct of each row, as text, after run_write_summary with this ceiling. */
static void write_and_read(double fp32_ceiling_gflops, char cells[][32], int rows)
{
    static struct job_result jobs[2];
    struct error e = {0};
    struct csv_table t;
    char path[96];
    int column;
    timed_job(&jobs[0], "tiled_32", 1024, 0.25);
    timed_job(&jobs[1], "tiled_32_fp64", 1024, 0.5);
    if (run_write_summary(dir, jobs, 2, fp32_ceiling_gflops, &e))
        fail_msg("%s", e.message);
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    if (csv_table_read(path, &t, &e) || schema_column(&t, &summary_csv, SUMMARY_FP32_ROOF_PCT, &column, &e))
        fail_msg("%s", e.message);
    assert_int_equal(t.rows, rows);
    for (int row = 0; row < rows; ++row)
        snprintf(cells[row], sizeof cells[row], "%s", csv_table_text(&t, row, column));
    csv_table_free(&t);
}

/* tiled_32 at W = 1024 in 0.25 ms: 2 x 1024^3 FLOP, 8,589.93 GFLOP/s, 14.3166 % of a 60,000 GFLOP/s ceiling; the
 * FP64 variant's row is empty: the FP32 roof is not its roof. */
static void the_share_of_the_fp32_ceiling_is_written_for_fp32_rows(void **state)
{
    (void)state;
    char cells[2][32];
    write_and_read(60000, cells, 2);
    assert_true(fabs(strtod(cells[0], NULL) - 100.0 * 2.0 * 1024 * 1024 * 1024 / 0.25e-3 / 1e9 / 60000) < 1e-6);
    assert_string_equal(cells[1], "");
}

/* A run without the roofline group measured no ceiling: the column is empty, never zero. */
static void without_a_measured_ceiling_the_share_is_empty(void **state)
{
    (void)state;
    char cells[2][32];
    write_and_read(NAN, cells, 2);
    assert_string_equal(cells[0], "");
    assert_string_equal(cells[1], "");
}

static int make_dir(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    return remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_share_of_the_fp32_ceiling_is_written_for_fp32_rows),
        cmocka_unit_test(without_a_measured_ceiling_the_share_is_empty),
    };
    return cmocka_run_group_tests_name("summary_rows", tests, make_dir, remove_dir);
}
