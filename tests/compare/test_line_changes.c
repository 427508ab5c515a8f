/* Per-line changes between two runs: two small lines.csv files, compared as memscope-compare does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/compare/line_changes.h"

#define BASE "/tmp/memscope-test-lines-base"
#define HEAD "/tmp/memscope-test-lines-head"
#define HEADER "variant,precision,width,kernel,file,line,source,opcodes,metric,value\n"
#define STORE "tiled_transposed,fp32,1024,k,kernels/lessons/matmul_transposed.cu,32,MdsT[tx][ty] = v;,STS,"
#define FMA "tiled_transposed,fp32,1024,k,kernels/lessons/matmul_transposed.cu,36,acc += a * b;,FFMA,"

static void write_lines(const char *dir, const char *rows)
{
    char path[256];
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/lines.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, HEADER "%s", rows);
    fclose(f);
}

static struct line_changes compare(const char *base_rows, const char *head_rows, char *printed, size_t len)
{
    struct line_changes r;
    struct error e = {0};
    write_lines(BASE, base_rows);
    write_lines(HEAD, head_rows);
    FILE *print = fmemopen(printed, len, "w");
    assert_int_equal(compare_line_changes(BASE, HEAD, print, NULL, &r, &e), 0);
    fclose(print);
    return r;
}

static void identical_runs_change_nothing(void **state)
{
    (void)state;
    char printed[4096];
    struct line_changes r = compare(STORE "inst_executed,32768\n", STORE "inst_executed,32768\n", printed,
                                    sizeof printed);
    assert_int_equal(r.compared, 1);
    assert_int_equal(r.changed, 0);
    assert_int_equal(r.regressions, 0);
}

static void a_new_conflicting_line_is_a_regression_named_by_file_and_line(void **state)
{
    (void)state;
    char printed[4096];
    struct line_changes r = compare(STORE "inst_executed,32768\n",
                                    STORE "inst_executed,32768\n" STORE "shared_excess_wavefronts,1015808\n",
                                    printed, sizeof printed);
    assert_int_equal(r.changed, 1);
    assert_int_equal(r.regressions, 1);
    assert_non_null(strstr(printed, "REGRESSION kernels/lessons/matmul_transposed.cu:32 tiled_transposed W=1024"));
    assert_non_null(strstr(printed, "0 -> 1015808 (new)"));
}

static void fewer_conflicts_and_other_counts_are_changes_not_regressions(void **state)
{
    (void)state;
    char printed[4096];
    struct line_changes r = compare(STORE "shared_excess_wavefronts,1015808\n" FMA "inst_executed,100\n",
                                    FMA "inst_executed,120\n", printed, sizeof printed);
    assert_int_equal(r.changed, 2);
    assert_int_equal(r.regressions, 0);
    assert_non_null(strstr(printed, "1015808 -> 0 (gone)"));
}

/* An edit above the store moves it one line down: the same conflicts on another line are no regression. */
static void a_line_that_only_moved_is_not_a_regression(void **state)
{
    (void)state;
    char printed[4096];
    struct line_changes r = compare(STORE "shared_excess_wavefronts,1015808\n",
                                    "tiled_transposed,fp32,1024,k,kernels/lessons/matmul_transposed.cu,33,"
                                    "MdsT[tx][ty] = v;,STS,shared_excess_wavefronts,1015808\n",
                                    printed, sizeof printed);
    assert_int_equal(r.changed, 2);
    assert_int_equal(r.regressions, 0);
    assert_null(strstr(printed, "REGRESSION"));
}

static void a_run_without_lines_is_not_compared(void **state)
{
    (void)state;
    struct line_changes r;
    struct error e = {0};
    write_lines(BASE, STORE "inst_executed,1\n");
    mkdir("/tmp/memscope-test-lines-none", 0777);
    assert_int_equal(compare_line_changes(BASE, "/tmp/memscope-test-lines-none", NULL, NULL, &r, &e), 0);
    assert_int_equal(r.compared, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identical_runs_change_nothing),
        cmocka_unit_test(a_new_conflicting_line_is_a_regression_named_by_file_and_line),
        cmocka_unit_test(fewer_conflicts_and_other_counts_are_changes_not_regressions),
        cmocka_unit_test(a_line_that_only_moved_is_not_a_regression),
        cmocka_unit_test(a_run_without_lines_is_not_compared),
    };
    return cmocka_run_group_tests_name("line changes", tests, NULL, NULL);
}
