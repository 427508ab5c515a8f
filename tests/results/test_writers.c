/*
 * results/'s writers and its reader agree: a folder written through the row structs alone opens with
 * results_folder_open, as the report, the comparison and the history open one; every file's header is its
 * schema's and each row has one field per column (a column added to schema.h without its field in the row
 * fails here); what was not measured (NAN, "") reads back empty, never zero. No GPU: the live run's writers are
 * these, with rows filled by the collectors.
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
#include "../../harness/results/environment_csv.h"
#include "../../harness/results/findings_csv.h"
#include "../../harness/results/folder_reader.h"
#include "../../harness/results/lines_csv.h"
#include "../../harness/results/metrics_csv.h"
#include "../../harness/results/stalls_csv.h"
#include "../../harness/results/summary_csv.h"
#include "../../harness/results/validate_csv.h"

static char dir[] = "/tmp/memscope-test-writers-XXXXXX";

static void expect_ok(int rc, const struct error *e)
{
    if (rc)
        fail_msg("%s", e->message);
}

static void write_environment(void)
{
    struct environment env = {0};
    struct error e = {0};
    env_add(&env, "gpu_name", "NVIDIA H100 80GB HBM3");
    env_add(&env, "command_line", "memscope --sizes 1024,2048");
    expect_ok(env_write(&env, dir, &e), &e);
}

/* A measured row (W = 1024, two samples) and one with nothing measured (W = 2048, a failed check). */
static void write_summary(void)
{
    struct csv c;
    struct error e = {0};
    struct summary_row measured, failed;
    summary_row_init(&measured);
    measured.variant = "tiled_32", measured.precision = "fp32", measured.layout = "row_major";
    measured.shape = product_shape_square(1024), measured.status = "passed", measured.reference = "cublas_fp64",
    measured.seed = 42;
    measured.samples = 2, measured.stop_reason = "converged", measured.median_ms = 1.25;
    measured.metrics_kernel = "matmul_tiled_kernel<32>", measured.headline[0] = 87.5, measured.fp32_roof_pct = 21.5;
    snprintf(measured.limiter, sizeof measured.limiter, "L1/shared");
    snprintf(measured.evidence, sizeof measured.evidence, "L1/shared 91 %%, FMA pipe 40 %%");
    summary_row_init(&failed);
    failed.variant = "tiled_32", failed.precision = "fp32", failed.layout = "row_major";
    failed.shape = product_shape_square(2048), failed.status = "failed", failed.reference = "cublas_fp64";
    expect_ok(summary_csv_create(&c, dir, &e), &e);
    summary_csv_row(&c, &measured);
    summary_csv_row(&c, &failed);
    expect_ok(csv_close(&c, &e), &e);
    expect_ok(samples_csv_create(&c, dir, &e), &e);
    samples_csv_row(&c, &(struct sample_row){"tiled_32", "fp32", product_shape_square(1024), 0, 1.2});
    samples_csv_row(&c, &(struct sample_row){"tiled_32", "fp32", product_shape_square(1024), 1, 1.3});
    expect_ok(csv_close(&c, &e), &e);
}

static void write_variants_and_metrics(void)
{
    struct csv c;
    struct error e = {0};
    expect_ok(variants_csv_create(&c, dir, &e), &e);
    variants_csv_row(&c, &(struct variant_row){"tiled_32", "fp32", "row_major", 32, 32, 32, 32, 3, "tiles, 32 by 32", 0});
    variants_csv_row(&c, &(struct variant_row){"ldmatrix", "bf16", "row_major", 256, 1, 128, 128, 0, "ldmatrix", 2});
    expect_ok(csv_close(&c, &e), &e);
    expect_ok(metrics_csv_create(&c, dir, &e), &e);
    metrics_csv_row(&c, &(struct metric_row){"tiled_32", "fp32", product_shape_square(1024), "matmul_tiled_kernel<32>",
                                             "dram_bytes_read", 4194304, "byte"});
    metrics_csv_row(&c, &(struct metric_row){"tiled_32", "fp32", product_shape_square(1024), "matmul_tiled_kernel<32>",
                                             "l2_hit_rate", NAN, "%"});
    /* a call of three kernels, the second without a value for the metric */
    const char *kernels[] = {"first", "second", "third"};
    const double written[] = {10, NAN, 5};
    for (int k = 0; k < 3; ++k)
        metrics_csv_row(&c, &(struct metric_row){"tiled_32", "fp32", product_shape_square(2048), kernels[k],
                                                 "dram_bytes_write", written[k], "byte"});
    expect_ok(csv_close(&c, &e), &e);
}

static void a_folder_written_row_by_row_opens_as_the_readers_open_it(void **state)
{
    (void)state;
    struct results_folder r;
    struct error e = {0};
    double value;
    write_environment();
    write_summary();
    write_variants_and_metrics();
    expect_ok(results_folder_open(dir, &r, &e), &e);
    assert_string_equal(results_environment(&r, "gpu_name"), "NVIDIA H100 80GB HBM3");
    int row = results_summary_row(&r, "tiled_32", product_shape_square(1024));
    assert_int_equal(row, 0);
    assert_string_equal(csv_table_text(&r.summary, row, SUMMARY_EVIDENCE), "L1/shared 91 %, FMA pipe 40 %");
    assert_string_equal(csv_table_text(&r.summary, row, SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT), "87.5");
    assert_string_equal(csv_table_text(&r.summary, row, SUMMARY_SEED), "42");
    assert_string_equal(csv_table_text(&r.summary, row, SUMMARY_DRAM_GBS), "");
    assert_string_equal(csv_table_text(&r.summary, row, SUMMARY_FP32_ROOF_PCT), "21.5");
    expect_ok(results_metric_sum(&r, "tiled_32", product_shape_square(1024), "dram_bytes_read", &value, &e), &e);
    assert_true(value == 4194304);
    expect_ok(results_metric_sum(&r, "tiled_32", product_shape_square(1024), "l2_hit_rate", &value, &e), &e);
    assert_true(isnan(value));
    /* a kernel without a value leaves the call's sum unknown, not the sum of the kernels after it */
    expect_ok(results_metric_sum(&r, "tiled_32", product_shape_square(2048), "dram_bytes_write", &value, &e), &e);
    assert_true(isnan(value));
    assert_int_equal(results_ladder_step(&r, RESULTS_FP32_LADDER, "tiled_32"), 3);
    assert_int_equal(results_ladder_step(&r, RESULTS_TENSOR_LADDER, "tiled_32"), 0);
    assert_int_equal(results_ladder_step(&r, RESULTS_TENSOR_LADDER, "ldmatrix"), 2);
    assert_int_equal(results_ladder_step(&r, RESULTS_FP32_LADDER, "ldmatrix"), 0);
    assert_string_equal(results_description(&r, "tiled_32"), "tiles, 32 by 32");
    results_folder_close(&r);
}

/* A row filled from summary_row_init with its key alone: every other field is empty, but the count of samples,
 * 0. */
static void a_row_that_measured_nothing_reads_back_empty(void **state)
{
    (void)state;
    struct results_folder r;
    struct error e = {0};
    write_environment();
    write_summary();
    expect_ok(results_folder_open(dir, &r, &e), &e);
    int row = results_summary_row(&r, "tiled_32", product_shape_square(2048));
    assert_int_equal(row, 1);
    for (int column = SUMMARY_MAX_ERROR; column < SUMMARY_ROWS; ++column) /* the key's shape follows */
        if (column != SUMMARY_SAMPLES && strcmp(csv_table_text(&r.summary, row, column), ""))
            fail_msg("%s is '%s', expected empty", summary_csv.columns[column], csv_table_text(&r.summary, row, column));
    assert_string_equal(csv_table_text(&r.summary, row, SUMMARY_SAMPLES), "0");
    results_folder_close(&r);
}

/* The file holds one row, under its schema's header. */
/* environment.csv's numbers as the diagnosis and the roofline read them: finite numbers only, NAN for the rest. */
static void environment_numbers_are_finite_or_nan(void **state)
{
    (void)state;
    struct environment env = {0};
    env_add(&env, "sm_count", "132");
    env_add(&env, "sm_clock_max_mhz", "1980.5");
    env_add(&env, "gpu_name", "NVIDIA H100 80GB HBM3");
    env_add(&env, "empty", "%s", "");
    env_add(&env, "half", "12abc");
    env_add(&env, "endless", "inf");
    assert_true(env_number(&env, "sm_count") == 132.0);
    assert_true(env_number(&env, "sm_clock_max_mhz") == 1980.5);
    const char *not_numbers[] = {"gpu_name", "empty", "half", "endless", "absent"};
    for (size_t i = 0; i < sizeof not_numbers / sizeof not_numbers[0]; ++i)
        if (!isnan(env_number(&env, not_numbers[i])))
            fail_msg("%s read as a number", not_numbers[i]);
    assert_true(isnan(env_number(NULL, "sm_count")));
}

static void read_one_row(const struct csv_schema *s, struct csv_table *t)
{
    char path[256];
    struct error e = {0};
    snprintf(path, sizeof path, "%s/%s", dir, s->file);
    expect_ok(csv_table_read(path, t, &e), &e);
    assert_true(schema_header_matches(t, s));
    assert_int_equal(t->rows, 1);
}

static void lines_stalls_and_validate_rows_have_one_field_per_column(void **state)
{
    (void)state;
    struct csv c;
    struct csv_table t;
    struct error e = {0};
    expect_ok(lines_csv_create(&c, dir, &e), &e);
    lines_csv_row(&c, &(struct line_row){"tiled_32", "fp32", product_shape_square(1024), "k", "kernels/a.cu", 7,
                                         "Ms[ty][tx] = M[i];", "LDG STS", "shared_excess_wavefronts", 1015808});
    expect_ok(csv_close(&c, &e), &e);
    read_one_row(&lines_csv, &t);
    assert_string_equal(csv_table_text(&t, 0, LINES_VALUE), "1015808");
    csv_table_free(&t);
    expect_ok(stalls_csv_create(&c, dir, &e), &e);
    stalls_csv_row(&c, &(struct stall_row){"tiled_32", "fp32", product_shape_square(1024), "k", "", 0, "",
                                           "long_scoreboard", 12345});
    expect_ok(csv_close(&c, &e), &e);
    read_one_row(&stalls_csv, &t);
    assert_string_equal(csv_table_text(&t, 0, STALLS_SAMPLES), "12345");
    csv_table_free(&t);
    expect_ok(validate_csv_create(&c, dir, &e), &e);
    validate_csv_row(&c, &(struct validate_row){"ceilings", "within 25 %", "ceiling_l2_gbs", NAN, 3000, 9000, 5500,
                                                true, "", "", NAN, NAN});
    expect_ok(csv_close(&c, &e), &e);
    read_one_row(&validate_csv, &t);
    assert_string_equal(csv_table_text(&t, 0, VALIDATE_EXPECTED), "");
    assert_string_equal(csv_table_text(&t, 0, VALIDATE_STATUS), "pass");
    csv_table_free(&t);
}

/* Two findings of one kernel written, the folder opened as the report opens it, and its first read back. */
static void findings_rows_read_back_as_written(void **state)
{
    (void)state;
    struct csv c;
    struct results_folder r;
    struct finding_row first;
    struct error e = {0};
    int found;
    write_environment();
    write_summary();
    expect_ok(findings_csv_create(&c, dir, &e), &e);
    findings_csv_row(&c, &(struct finding_row){"tiled_32", "fp32", product_shape_square(1024), "k", 1,
                                               "uncoalesced_global_stores", "global", 58.3,
                                               "global stores use 12.5 %, \"32\" sectors", "k.cu:12"});
    findings_csv_row(&c, &(struct finding_row){"tiled_32", "fp32", product_shape_square(1024), "k", 2, "l2_bound",
                                               "global", 16.7, "limiter L2 bandwidth", ""});
    expect_ok(csv_close(&c, &e), &e);
    expect_ok(results_folder_open(dir, &r, &e), &e);
    assert_true(r.has_findings);
    assert_true(schema_header_matches(&r.findings, &findings_csv));
    expect_ok(findings_csv_first(&r.findings, "tiled_32", product_shape_square(1024), &first, &found, &e), &e);
    assert_true(found);
    assert_int_equal(first.rank, 1);
    assert_string_equal(first.cause, "uncoalesced_global_stores");
    assert_string_equal(first.scope, "global");
    assert_float_equal(first.estimated_gain_pct, 58.3, 1e-12);
    assert_string_equal(first.evidence, "global stores use 12.5 %, \"32\" sectors");
    assert_string_equal(first.line, "k.cu:12");
    expect_ok(findings_csv_first(&r.findings, "tiled_32", product_shape_square(2048), &first, &found, &e), &e);
    assert_false(found);
    results_folder_close(&r);
}

/* A folder from before issue 40: no findings.csv, and it still opens. */
static void a_folder_without_findings_opens(void **state)
{
    (void)state;
    struct results_folder r;
    struct error e = {0};
    write_environment();
    write_summary();
    expect_ok(results_folder_open(dir, &r, &e), &e);
    assert_false(r.has_findings);
    results_folder_close(&r);
}

static int make_dir(void **state)
{
    (void)state;
    strcpy(dir + strlen(dir) - 6, "XXXXXX");
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
        cmocka_unit_test_setup_teardown(a_folder_written_row_by_row_opens_as_the_readers_open_it, make_dir,
                                        remove_dir),
        cmocka_unit_test_setup_teardown(a_row_that_measured_nothing_reads_back_empty, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(findings_rows_read_back_as_written, make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(a_folder_without_findings_opens, make_dir, remove_dir),
        cmocka_unit_test(environment_numbers_are_finite_or_nan),
        cmocka_unit_test_setup_teardown(lines_stalls_and_validate_rows_have_one_field_per_column, make_dir,
                                        remove_dir),
    };
    return cmocka_run_group_tests_name("results writers", tests, NULL, NULL);
}
