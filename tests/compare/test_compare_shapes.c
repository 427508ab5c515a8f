/*
 * memscope-compare keys its rows by (variant, shape): a rectangular product (memscope -s 8192x3072x1024, width 0)
 * pairs with the same rectangle, never with a square of its variant, and is named by its shape in the table,
 * compare.csv and the chart; a folder written before the shape columns (rows, cols and inner) holds squares and
 * compares with a newer one as it always did.
 *
 * SHAPES: two rounds of cublas_bf16 on an H200 at W=1024 and at 8192x3072x1024 (its README: head's rectangle
 * planted 10 % slower; medians worked from samples.csv: 0.0080 and 0.0080 ms at 1024, 0.0731 and 0.0804 ms at the
 * rectangle, +9.98 %). The binary is found through MEMSCOPE_COMPARE (set by make test).
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
#include "../support/run_shell.h"

#define SHAPES "tests/fixtures/compare-shapes"
#define SQUARES_BEFORE_SHAPES "tests/fixtures/report-run"
#define GATE_ROUND_BEFORE_SHAPES "tests/fixtures/gate-h200/same-code/base/round-3"
#define PROFILE_BEFORE_SHAPES "tests/fixtures/profile-small"

static char workdir[] = "/tmp/memscope-compare-shapes-XXXXXX";

static const char *compare_tool(void)
{
    const char *path = getenv("MEMSCOPE_COMPARE");
    return path ? path : "build/memscope-compare";
}

static void expect(const struct outcome *o, int code, const char *text)
{
    if (o->exit_code != code || (text && !strstr(o->output, text)))
        fail_msg("expected exit %d and \"%s\"; got %d:\n%s", code, text ? text : "", o->exit_code, o->output);
}

/* The table's line that starts with variant and holds size in its size column. */
static const char *table_line(const char *output, const char *variant, const char *size)
{
    for (const char *line = output; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char name[64];
        char column[64];
        if (sscanf(line, "%63s %63s", name, column) == 2 && !strcmp(name, variant) && !strcmp(column, size))
            return line;
    }
    fail_msg("no line of %s at %s in:\n%s", variant, size, output);
    return NULL;
}

/* Whether the text before the line's end holds needle. */
static int on_line(const char *line, const char *needle)
{
    const char *found = strstr(line, needle), *end = strchr(line, '\n');
    return found && (!end || found < end);
}

static void a_rectangle_pairs_with_the_rectangle_not_the_square(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s -o %s/shapes %s/base %s/head", compare_tool(), workdir, SHAPES, SHAPES);
    expect(&o, 1, "1 SAME, 1 SLOWER, 0 FASTER, 0 UNSURE, 0 FAILED");
    /* The rectangle's medians are its own on both sides (0.073 ms, not the square's 0.008 ms). */
    const char *rectangle = table_line(o.output, "cublas_bf16", "8192x3072x1024");
    assert_true(on_line(rectangle, "0.0731      0.0804   +9.98%"));
    assert_true(on_line(rectangle, "SLOWER"));
    assert_true(on_line(table_line(o.output, "cublas_bf16", "1024"), "SAME"));
    assert_true(on_line(o.output, "shape     base_ms")); /* the size column's title, over shapes */
    shell(&o, "cat %s/shapes/compare.csv", workdir);
    expect(&o, 0, "variant,precision,width,base_samples,head_samples,base_median_ms,head_median_ms,change_pct,"
                  "interval_low_pct,interval_high_pct,p_value,verdict,reason,floor_pct,rows,cols,inner,label,p_holm\n"
                  "cublas_bf16,bf16,1024,388,335,0.007968000136,0.007968000136,0,");
    /* p_holm: Holm's step-down over the two units, the smaller p twice over, the larger as it is */
    expect(&o, 0, ",2.178080773e-09,SAME,interval within the 2 % floor,2,1024,1024,1024,cublas_bf16,4.356161545e-09\n"
                  "cublas_bf16,bf16,0,10,10,0.0731359981,0.08043199778,9.97");
    expect(&o, 0, ",0.0001806347208,SLOWER,");
    expect(&o, 0, ",2,8192,3072,1024,cublas_bf16,0.0001806347208\n");
    shell(&o, "head -n 1 %s/shapes/compare-metrics.csv", workdir);
    expect(&o, 0, ",base_collections,head_collections,rows,cols,inner\n");
}

/* A CSV file of a results folder given the shape columns a newer memscope writes: its widths as squares. */
static void add_shape_columns(const char *dir, const char *file)
{
    static struct outcome o;
    shell(&o, "cd %s && awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == \"width\") w = i; "
              "print $0, \"rows\", \"cols\", \"inner\"; next } { print $0, $w, $w, $w }' %s > shaped && mv shaped %s",
          dir, file, file);
    expect(&o, 0, NULL);
}

/* The fixture run of squares as a newer memscope writes it: rows, cols and inner in each size-keyed file (its
 * width column comes before any text with a comma). */
static const char *squares_with_shapes(void)
{
    static char path[300];
    static struct outcome o;
    snprintf(path, sizeof path, "%s/squares-with-shapes", workdir);
    shell(&o, "cp -r %s %s", SQUARES_BEFORE_SHAPES, path);
    expect(&o, 0, NULL);
    add_shape_columns(path, "summary.csv");
    add_shape_columns(path, "samples.csv");
    add_shape_columns(path, "metrics.csv");
    return path;
}

/* The same squares, older and newer, compare as the older with itself: the same table, word for word. */
static void a_folder_from_before_the_shape_columns_compares_with_one_of_squares(void **state)
{
    (void)state;
    static struct outcome before, older_newer, newer_older;
    const char *newer = squares_with_shapes();
    shell(&before, "%s %s %s", compare_tool(), SQUARES_BEFORE_SHAPES, SQUARES_BEFORE_SHAPES);
    expect(&before, 0, "14 SAME, 0 SLOWER, 0 FASTER, 0 UNSURE, 0 FAILED; 0 metric regressions");
    shell(&older_newer, "%s %s %s", compare_tool(), SQUARES_BEFORE_SHAPES, newer);
    shell(&newer_older, "%s %s %s", compare_tool(), newer, SQUARES_BEFORE_SHAPES);
    expect(&older_newer, 0, NULL);
    expect(&newer_older, 0, NULL);
    assert_string_equal(older_newer.output, before.output);
    assert_string_equal(newer_older.output, before.output);
    assert_true(on_line(before.output, "variant                   width     base_ms"));
}

/* A round from before the shape columns, of squares, against a folder with a rectangle: its square pairs, the
 * rectangle (width 0) finds nothing in it. */
static void an_older_round_pairs_its_squares_and_leaves_the_rectangle_alone(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s %s %s/head", compare_tool(), GATE_ROUND_BEFORE_SHAPES, SHAPES);
    expect(&o, 0, "1 SAME, 0 SLOWER, 0 FASTER, 3 UNSURE");
    assert_true(on_line(table_line(o.output, "cublas_bf16", "1024"), "SAME"));
    assert_true(on_line(table_line(o.output, "cublas_bf16", "8192x3072x1024"), "not measured in base"));
    assert_true(on_line(table_line(o.output, "tiled_32", "1024"), "not measured in head"));
}

/* DIR's chart drawn with nothing on stderr (where gnuplot warns), and its text: the bars' rotated labels run together
 * ("cublas_bf168192x3072x1024"). */
static void chart_text(struct outcome *o, const char *dir)
{
    shell(o, "(scripts/compare-chart %s >/dev/null)", dir);
    expect(o, 0, NULL);
    assert_string_equal(o->output, "");
    shell(o, "pdftotext -raw %s/compare.pdf - | tr -d '\\n '", dir);
}

static void the_chart_names_a_rectangle_by_its_shape_and_reads_an_older_file(void **state)
{
    (void)state;
    static struct outcome o;
    char dir[300];
    if (system("command -v gnuplot >/dev/null && command -v pdftotext >/dev/null") != 0) {
        print_message("gnuplot or pdftotext missing: the chart test is skipped\n");
        skip();
    }
    snprintf(dir, sizeof dir, "%s/chart", workdir);
    shell(&o, "%s -o %s %s/base %s/head", compare_tool(), dir, SHAPES, SHAPES);
    expect(&o, 1, NULL);
    chart_text(&o, dir);
    expect(&o, 0, "cublas_bf16W=1024cublas_bf168192x3072x1024");
    /* A program's kernels by the names the table shows (compare.csv's label), cut to 40 characters, with no size:
     * their commas kept (gnuplot cut a quoted CSV field at its first comma: "cunn_SoftMaxForward<4"). */
    snprintf(dir, sizeof dir, "%s/program-chart", workdir);
    shell(&o, "%s -o %s %s tests/fixtures/profile-small-after", compare_tool(), dir, PROFILE_BEFORE_SHAPES);
    chart_text(&o, dir);
    expect(&o, 0, "Kernel2<cutlass_80_simt_sgemm_256x128_8…cunn_SoftMaxForward<4,float,float,fl…");
    /* A program's compare.csv as memscope-compare wrote it before the shape columns, the label and Holm's p (the last
     * five, cut): its kernels' bars by their whole names, cut the same way, with no warning of a column the file
     * lacks. */
    snprintf(dir, sizeof dir, "%s/older-chart", workdir);
    shell(&o, "%s -o %s %s %s && cd %s && sed -E '1s/,rows,cols,inner,label,p_holm$//; "
              "2,$s/(,[0-9]+){3},(\"[^\"]*\"|[^,]*),[^,]*$//' compare.csv > cut && mv cut compare.csv",
          compare_tool(), dir, PROFILE_BEFORE_SHAPES, PROFILE_BEFORE_SHAPES, dir);
    expect(&o, 0, NULL);
    shell(&o, "head -n 1 %s/compare.csv", dir);
    expect(&o, 0, ",reason,floor_pct\n");
    chart_text(&o, dir);
    expect(&o, 0, "voidcutlass::Kernel2<cutlass_80_simt_s…");
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
        cmocka_unit_test(a_rectangle_pairs_with_the_rectangle_not_the_square),
        cmocka_unit_test(a_folder_from_before_the_shape_columns_compares_with_one_of_squares),
        cmocka_unit_test(an_older_round_pairs_its_squares_and_leaves_the_rectangle_alone),
        cmocka_unit_test(the_chart_names_a_rectangle_by_its_shape_and_reads_an_older_file),
    };
    return cmocka_run_group_tests_name("compare shapes", tests, setup, teardown);
}
