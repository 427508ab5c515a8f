/*
 * The rows of summary.csv as a run fills them from its jobs (harness/run/summary_rows.c), with no GPU: the share of
 * the run's measured FP32 ceiling, fp32_roof_pct, is the row's gflops over that ceiling, for FP32 variants only, and
 * empty where the run measured no ceiling; a profiled job's tensor columns (tensor_type, tensor_flop, tensor_tflops,
 * tensor_roof_pct) come from its tensor counters and the run's recorded tensor roof of that type.
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
#include "../../harness/run/launch.h"
#include "../../harness/run/summary_rows.h"

static char dir[] = "/tmp/memscope-test-summary-rows-XXXXXX";

/* A job that passed its check, timed once at median_ms. */
static void timed_job(struct job_result *r, const char *variant, int width, double median_ms)
{
    memset(r, 0, sizeof *r);
    r->variant = matmul_find(variant);
    assert_non_null(r->variant);
    r->shape = matmul_square(width);
    r->key = job_key(r->shape);
    r->reference = "cublas_fp64";
    r->check.passed = r->recheck.passed = r->passed = true;
    r->timing.n = 1;
    r->timing.stop_reason = "converged";
    r->timing.stats.median = median_ms;
}

/* The cells of one summary.csv column, as text, after run_write_summary of the two jobs with this environment. */
static void write_and_read(struct job_result jobs[2], const struct environment *env, int id, char cells[][32])
{
    struct error e = {0};
    struct csv_table t;
    char path[96];
    int column;
    if (run_write_summary(dir, jobs, 2, env, &e))
        fail_msg("%s", e.message);
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    if (csv_table_read(path, &t, &e) || schema_column(&t, &summary_csv, id, &column, &e))
        fail_msg("%s", e.message);
    assert_int_equal(t.rows, 2);
    for (int row = 0; row < 2; ++row)
        snprintf(cells[row], sizeof cells[row], "%s", csv_table_text(&t, row, column));
    csv_table_free(&t);
}

/* tiled_32 in 0.25 ms and tiled_32_fp64 in 0.5 ms at W = 1024, with a column of each. */
static void write_lessons(const struct environment *env, int id, char cells[][32])
{
    static struct job_result jobs[2];
    timed_job(&jobs[0], "tiled_32", 1024, 0.25);
    timed_job(&jobs[1], "tiled_32_fp64", 1024, 0.5);
    write_and_read(jobs, env, id, cells);
}

/* tiled_32 at W = 1024 in 0.25 ms: 2 x 1024^3 FLOP, 8,589.93 GFLOP/s, 14.3166 % of a 60,000 GFLOP/s ceiling; the
 * FP64 variant's row is empty: the FP32 roof is not its roof. */
static void the_share_of_the_fp32_ceiling_is_written_for_fp32_rows(void **state)
{
    (void)state;
    char cells[2][32];
    struct environment env = {0};
    env_add(&env, "ceiling_fp32_gflops", "60000.0");
    write_lessons(&env, SUMMARY_FP32_ROOF_PCT, cells);
    assert_true(fabs(strtod(cells[0], NULL) - 100.0 * 2.0 * 1024 * 1024 * 1024 / 0.25e-3 / 1e9 / 60000) < 1e-6);
    assert_string_equal(cells[1], "");
}

/* A run without the roofline group measured no ceiling: the column is empty, never zero. */
static void without_a_measured_ceiling_the_share_is_empty(void **state)
{
    (void)state;
    char cells[2][32];
    struct environment env = {0};
    write_lessons(&env, SUMMARY_FP32_ROOF_PCT, cells);
    assert_string_equal(cells[0], "");
    assert_string_equal(cells[1], "");
}

/* The first job profiled with the tensor group: a bf16 GEMM of 4096^3 (2 x 4096^3 = 137,438,953,472 bf16 operations,
 * a few fp16 ones beside) in 200 us; the second profiled without it. */
static void write_tensor_jobs(const struct environment *env, int id, char cells[][32])
{
    static struct job_result jobs[2];
    static const char *const names[] = {"gpu__time_duration.sum",          "sm__ops_path_tensor_src_bf16_dst_fp32.sum",
                                        "sm__ops_path_tensor_src_fp16.sum", "sm__ops_path_tensor_src_tf32_dst_fp32.sum",
                                        "sm__ops_path_tensor_src_fp8.sum",  "sm__ops_path_tensor_src_int8.sum",
                                        "sm__ops_path_tensor_src_fp64.sum"};
    static const double values[] = {200000.0, 137438953472.0, 4096.0, 0, 0, 0, 0};
    timed_job(&jobs[0], "cublas", 4096, 0.2);
    timed_job(&jobs[1], "cublas", 4096, 0.2);
    for (int j = 0; j < 2; ++j) {
        jobs[j].profiled = true;
        jobs[j].profile.n_kernels = 1;
        jobs[j].profile.n_metrics = j == 0 ? 7 : 1;
        for (int m = 0; m < 7; ++m) {
            jobs[j].profile.names[m] = names[m];
            jobs[j].profile.kernels[0].values[m] = values[m];
        }
    }
    write_and_read(jobs, env, id, cells);
}

static void a_tensor_kernel_gets_its_type_flop_and_tflops(void **state)
{
    (void)state;
    char cells[2][32];
    struct environment env = {0};
    write_tensor_jobs(&env, SUMMARY_TENSOR_TYPE, cells);
    assert_string_equal(cells[0], "bf16");
    assert_string_equal(cells[1], "");
    write_tensor_jobs(&env, SUMMARY_TENSOR_FLOP, cells);
    assert_string_equal(cells[0], "137438957568"); /* every type: the bf16 and the fp16 operations */
    assert_string_equal(cells[1], "");
    write_tensor_jobs(&env, SUMMARY_TENSOR_TFLOPS, cells);
    assert_true(fabs(strtod(cells[0], NULL) - 137438957568.0 / 200e-6 / 1e12) < 1e-6);
    assert_string_equal(cells[1], "");
    write_tensor_jobs(&env, SUMMARY_TENSOR_ROOF_PCT, cells); /* no bf16 roof measured */
    assert_string_equal(cells[0], "");
}

/* 687.19 TFLOP/s against a measured bf16 roof of 800 TFLOP/s: 85.90 %; a roof of another type is not its roof. */
static void the_share_of_the_measured_roof_of_its_type(void **state)
{
    (void)state;
    char cells[2][32];
    struct environment env = {0};
    env_add(&env, "ceiling_tensor_tf32_gflops", "400000.0");
    write_tensor_jobs(&env, SUMMARY_TENSOR_ROOF_PCT, cells);
    assert_string_equal(cells[0], "");
    env_add(&env, "ceiling_tensor_bf16_gflops", "800000.0");
    write_tensor_jobs(&env, SUMMARY_TENSOR_ROOF_PCT, cells);
    assert_true(fabs(strtod(cells[0], NULL) - 100.0 * 137438957568.0 / 200e-6 / 800000e9) < 1e-6);
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
        cmocka_unit_test(a_tensor_kernel_gets_its_type_flop_and_tflops),
        cmocka_unit_test(the_share_of_the_measured_roof_of_its_type),
    };
    return cmocka_run_group_tests_name("summary_rows", tests, make_dir, remove_dir);
}
