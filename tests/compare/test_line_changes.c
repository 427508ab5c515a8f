/* Per-line changes between two runs: two small lines.csv files, compared as memscope-compare does; a rectangle's
 * lines (rows, cols and inner, lines.csv's last columns since rectangular products) against its own. */
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
#define OUT "/tmp/memscope-test-lines-out"
#define HEADER "variant,precision,width,kernel,file,line,source,opcodes,metric,value\n"
#define SHAPED_HEADER "variant,precision,width,kernel,file,line,source,opcodes,metric,value,rows,cols,inner\n"
#define STORE "tiled_transposed,fp32,1024,k,kernels/lessons/matmul_transposed.cu,32,MdsT[tx][ty] = v;,STS,"
#define FMA "tiled_transposed,fp32,1024,k,kernels/lessons/matmul_transposed.cu,36,acc += a * b;,FFMA,"
#define RECTANGLE_STORE "tiled_transposed,fp32,0,k,kernels/lessons/matmul_transposed.cu,32,MdsT[tx][ty] = v;,STS,"
#define SQUARE ",1024,1024,1024\n"
#define RECTANGLE ",8192,3072,1024\n"
#define TRANSPOSED_RECTANGLE ",3072,8192,1024\n"

static void write_lines(const char *dir, const char *header, const char *rows)
{
    char path[256];
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/lines.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s%s", header, rows);
    fclose(f);
}

/* The two files compared, under their headers; the changes written to out_dir unless it is NULL. */
static struct line_changes compare_files(const char *base_header, const char *base_rows, const char *head_header,
                                         const char *head_rows, const char *out_dir, char *printed, size_t len)
{
    struct line_changes r;
    struct error e = {0};
    write_lines(BASE, base_header, base_rows);
    write_lines(HEAD, head_header, head_rows);
    FILE *print = fmemopen(printed, len, "w");
    if (compare_line_changes(BASE, HEAD, print, out_dir, &r, &e))
        fail_msg("%s", e.message);
    fclose(print);
    return r;
}

static struct line_changes compare(const char *base_rows, const char *head_rows, char *printed, size_t len)
{
    return compare_files(HEADER, base_rows, HEADER, head_rows, NULL, printed, len);
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
    write_lines(BASE, HEADER, STORE "inst_executed,1\n");
    mkdir("/tmp/memscope-test-lines-none", 0777);
    assert_int_equal(compare_line_changes(BASE, "/tmp/memscope-test-lines-none", NULL, NULL, &r, &e), 0);
    assert_int_equal(r.compared, 0);
}

/* A variant at a square and at two rectangles, whose rows share their width (0): only 8192x3072x1024's store
 * conflicts more in head. By shape, each count meets its own, and the one change is that rectangle's. */
static void a_rectangles_line_pairs_with_its_own_and_is_named_by_its_shape(void **state)
{
    (void)state;
    char printed[4096], written[4096] = "";
    mkdir(OUT, 0777);
    remove(OUT "/compare-lines.csv");
    struct line_changes r = compare_files(SHAPED_HEADER,
                                          STORE "shared_excess_wavefronts,1015808" SQUARE
                                          RECTANGLE_STORE "shared_excess_wavefronts,100" RECTANGLE
                                          RECTANGLE_STORE "shared_excess_wavefronts,300" TRANSPOSED_RECTANGLE,
                                          SHAPED_HEADER,
                                          STORE "shared_excess_wavefronts,1015808" SQUARE
                                          RECTANGLE_STORE "shared_excess_wavefronts,200" RECTANGLE
                                          RECTANGLE_STORE "shared_excess_wavefronts,300" TRANSPOSED_RECTANGLE,
                                          OUT, printed, sizeof printed);
    assert_int_equal(r.changed, 1);
    assert_int_equal(r.regressions, 1);
    assert_non_null(strstr(printed, "REGRESSION kernels/lessons/matmul_transposed.cu:32 tiled_transposed "
                                    "8192x3072x1024: shared_excess_wavefronts 100 -> 200 (more)"));
    FILE *f = fopen(OUT "/compare-lines.csv", "r");
    assert_non_null(f);
    written[fread(written, 1, sizeof written - 1, f)] = '\0';
    fclose(f);
    assert_string_equal(written, "variant,width,kernel,file,line,metric,base,head,kind,rows,cols,inner\n"
                                 "tiled_transposed,0,k,kernels/lessons/matmul_transposed.cu,32,"
                                 "shared_excess_wavefronts,100,200,changed,8192,3072,1024\n");
}

/* lines.csv from before the shape columns holds squares of its widths: the same counts in a newer file are no
 * change. */
static void an_older_lines_csv_reads_as_squares(void **state)
{
    (void)state;
    char printed[4096];
    struct line_changes r = compare_files(HEADER, STORE "inst_executed,32768\n", SHAPED_HEADER,
                                          STORE "inst_executed,32768" SQUARE, NULL, printed, sizeof printed);
    assert_int_equal(r.compared, 1);
    assert_int_equal(r.changed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identical_runs_change_nothing),
        cmocka_unit_test(a_new_conflicting_line_is_a_regression_named_by_file_and_line),
        cmocka_unit_test(fewer_conflicts_and_other_counts_are_changes_not_regressions),
        cmocka_unit_test(a_line_that_only_moved_is_not_a_regression),
        cmocka_unit_test(a_run_without_lines_is_not_compared),
        cmocka_unit_test(a_rectangles_line_pairs_with_its_own_and_is_named_by_its_shape),
        cmocka_unit_test(an_older_lines_csv_reads_as_squares),
    };
    return cmocka_run_group_tests_name("line changes", tests, NULL, NULL);
}
