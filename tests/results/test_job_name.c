/*
 * A program profile's job names (results/job_name.h): formatted from a launch's NVTX path, kernel and ordinal and
 * taken apart again given the kernel, a kernel whose name holds '/', '#' and spaces included; and the fixture
 * profile's launches.csv names each launch's job so.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/results/job_name.h"
#include "../../harness/results/schema.h"

static void names_format_and_split_back(void **state)
{
    (void)state;
    static const char *const kernels[] = {"void k<1, 2>(float*, int)", "operator/ #2", "k"};
    static const char *const paths[] = {"step 1/matmul", ""};
    char job[JOB_NAME_LEN];
    for (size_t k = 0; k < 3; ++k)
        for (size_t p = 0; p < 2; ++p) {
            struct job_parts parts;
            assert_int_equal(job_name_format(job, sizeof job, paths[p], kernels[k], 7), 0);
            assert_int_equal(job_name_split(job, kernels[k], &parts), 0);
            assert_int_equal(parts.path_len, strlen(paths[p]));
            assert_memory_equal(parts.path, paths[p], parts.path_len);
            assert_int_equal(parts.ordinal, 7);
        }
    assert_string_equal((job_name_format(job, sizeof job, "a", "k", 0), job), "a/k #0");
    assert_int_equal(job_name_format(job, 6, "a", "k", 0), -1);
    struct job_parts parts;
    assert_int_equal(job_name_split("a/k #x", "k", &parts), -1);
    assert_int_equal(job_name_split("a/k #1", "other", &parts), -1);
    assert_int_equal(job_name_split("ak #1", "k", &parts), -1);
}

static void fixture_launches_name_their_jobs(void **state)
{
    (void)state;
    struct csv_table t;
    struct error e = {0};
    int job, path, kernel, ordinal;
    if (csv_table_read("tests/fixtures/profile-small/launches.csv", &t, &e) ||
        schema_column(&t, &launches_csv, LAUNCHES_JOB, &job, &e) ||
        schema_column(&t, &launches_csv, LAUNCHES_NVTX_PATH, &path, &e) ||
        schema_column(&t, &launches_csv, LAUNCHES_KERNEL, &kernel, &e) ||
        schema_column(&t, &launches_csv, LAUNCHES_KERNEL_ORDINAL, &ordinal, &e))
        fail_msg("%s", e.message);
    assert_true(schema_header_matches(&t, &launches_csv));
    for (int row = 0; row < t.rows; ++row) {
        char name[JOB_NAME_LEN];
        int k;
        assert_int_equal(csv_table_int(&t, row, ordinal, &k, &e), 0);
        assert_int_equal(job_name_format(name, sizeof name, csv_table_text(&t, row, path),
                                         csv_table_text(&t, row, kernel), k), 0);
        assert_string_equal(csv_table_text(&t, row, job), name);
    }
    csv_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_format_and_split_back),
        cmocka_unit_test(fixture_launches_name_their_jobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
