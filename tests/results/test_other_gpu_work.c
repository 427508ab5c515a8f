/*
 * summary.csv's other_gpu_work, the flag of a timing another process
 * disturbed: a column of the schema, read back by the folder reader, and
 * told apart from NVML's "unknown" and from a run that predates the column.
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

#include "../../harness/results/folder_reader.h"
#include "../../harness/results/schema.h"
#include "../support/mark_disturbed.h"
#include "../support/remove_tree.h"

#define FIXTURE "tests/fixtures/report-run"

static char workdir[] = "/tmp/memscope-other-gpu-work-XXXXXX";

static void the_summary_schema_has_the_column(void **state)
{
    (void)state;
    assert_string_equal(summary_csv.columns[SUMMARY_OTHER_GPU_WORK], "other_gpu_work");
}

/* A copy of the fixture with naive at 1024 marked who, opened. */
static void open_marked(const char *who, struct results_folder *r)
{
    static struct outcome o;
    struct error e = {0};
    char run[300];
    snprintf(run, sizeof run, "%s/run", workdir);
    shell(&o, "rm -rf %s && cp -r %s %s", run, FIXTURE, run);
    assert_int_equal(o.exit_code, 0);
    mark_disturbed(run, "naive", 1024, who);
    if (results_folder_open(run, r, &e))
        fail_msg("%s", e.message);
}

static void a_marked_row_names_the_process_and_is_disturbed(void **state)
{
    (void)state;
    struct results_folder r;
    open_marked("pid 4242 (python3), SM 99 %", &r);
    int naive = results_summary_row(&r, "naive", product_shape_square(1024)),
        other = results_summary_row(&r, "cublas", product_shape_square(1024));
    assert_string_equal(results_other_gpu_work(&r, naive), "pid 4242 (python3), SM 99 %");
    assert_true(results_disturbed(&r, naive));
    assert_string_equal(results_other_gpu_work(&r, other), "");
    assert_false(results_disturbed(&r, other));
    results_folder_close(&r);
}

static void nvml_unable_to_tell_is_not_disturbed(void **state)
{
    (void)state;
    struct results_folder r;
    open_marked("unknown: NVML could not be opened", &r);
    assert_false(results_disturbed(&r, results_summary_row(&r, "naive", product_shape_square(1024))));
    results_folder_close(&r);
}

static void a_run_before_the_column_is_not_disturbed(void **state)
{
    (void)state;
    struct results_folder r;
    struct error e = {0};
    if (results_folder_open(FIXTURE, &r, &e))
        fail_msg("%s", e.message);
    int naive = results_summary_row(&r, "naive", product_shape_square(1024));
    assert_string_equal(results_other_gpu_work(&r, naive), "");
    assert_false(results_disturbed(&r, naive));
    results_folder_close(&r);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(workdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_summary_schema_has_the_column),
        cmocka_unit_test(a_marked_row_names_the_process_and_is_disturbed),
        cmocka_unit_test(nvml_unable_to_tell_is_not_disturbed),
        cmocka_unit_test(a_run_before_the_column_is_not_disturbed),
    };
    return cmocka_run_group_tests_name("other_gpu_work", tests, setup, teardown);
}
