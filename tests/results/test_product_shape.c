/*
 * A product's shape, the key of a results row beside its variant (harness/results/product_shape.h): its text as -s
 * takes it and the files' texts hold it, read back from a table with or without the rows, cols and inner columns
 * (a folder from before them holds squares), through a capture's tags, and as the folder reader keys a square and
 * a rectangle of one variant apart. No GPU.
 */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../../harness/results/capture_tags.h"
#include "../../harness/results/environment_csv.h"
#include "../../harness/results/folder_reader.h"
#include "../../harness/results/metrics_csv.h"
#include "../../harness/results/product_shape.h"
#include "../../harness/results/summary_csv.h"

static char dir[] = "/tmp/memscope-test-shape-XXXXXX";

static const struct product_shape qkv = {8192, 3072, 1024}; /* a transformer block's first GEMM at 8192 tokens */

static void expect_ok(int rc, const struct error *e)
{
    if (rc)
        fail_msg("%s", e->message);
}

static void expect_shape(struct product_shape s, int rows, int cols, int inner)
{
    assert_int_equal(s.rows, rows);
    assert_int_equal(s.cols, cols);
    assert_int_equal(s.inner, inner);
}

static void a_width_or_three_extents_parse(void **state)
{
    (void)state;
    struct product_shape s;
    assert_int_equal(product_shape_parse("4096", INT_MAX, &s), 0);
    expect_shape(s, 4096, 4096, 4096);
    assert_int_equal(product_shape_parse("8192x3072x1024", INT_MAX, &s), 0);
    expect_shape(s, 8192, 3072, 1024);
    assert_int_equal(product_shape_parse("0", INT_MAX, &s), 0); /* a program's job */
    expect_shape(s, 0, 0, 0);
}

static void anything_else_is_no_shape(void **state)
{
    (void)state;
    static const char *const refused[] = {"",         "x",         "8192x",     "8192x3072", "1x2x3x4", "12a",
                                          "-1",       " 12",       "12 ",       "8192X3072X1024",      "1xx2",
                                          "4097x1x1", "2x99999999999999999999x1",
                                          "0x3072x1024", "8192x0x1024"}; /* an empty side beside others */
    struct product_shape s = {7, 7, 7};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; ++i)
        if (product_shape_parse(refused[i], 4096, &s) == 0)
            fail_msg("'%s' parsed as %d x %d x %d", refused[i], s.rows, s.cols, s.inner);
    expect_shape(s, 7, 7, 7); /* untouched */
}

static void a_square_reads_as_its_width(void **state)
{
    (void)state;
    char text[PRODUCT_SHAPE_LEN];
    assert_int_equal(product_shape_width(product_shape_square(4096)), 4096);
    assert_int_equal(product_shape_width(qkv), 0);
    assert_string_equal(product_shape_text(product_shape_square(4096), text), "4096");
    assert_string_equal(product_shape_label(product_shape_square(4096), text), "W=4096");
    assert_string_equal(product_shape_text(qkv, text), "8192x3072x1024");
    assert_string_equal(product_shape_label(qkv, text), "8192x3072x1024");
    assert_string_equal(product_shape_label(PRODUCT_SHAPE_NONE, text), "W=0");
    /* the text parses back to the shape */
    struct product_shape back;
    assert_int_equal(product_shape_parse(product_shape_text(qkv, text), INT_MAX, &back), 0);
    assert_true(product_shape_equal(back, qkv));
}

/* The least work first: 8192 x 3072 x 1024 (2^35 multiply-adds) between 2048^3 (2^33) and 4096^3 (2^36). */
static void shapes_order_by_their_work(void **state)
{
    (void)state;
    assert_true(product_shape_compare(product_shape_square(2048), qkv) < 0);
    assert_true(product_shape_compare(qkv, product_shape_square(4096)) < 0);
    assert_true(product_shape_compare(product_shape_square(1024), product_shape_square(1536)) < 0);
    assert_int_equal(product_shape_compare(qkv, qkv), 0);
    /* the same work: by rows, then cols */
    assert_true(product_shape_compare((struct product_shape){1024, 8192, 3072}, qkv) < 0);
    assert_true(product_shape_compare((struct product_shape){8192, 1024, 3072}, qkv) < 0);
    /* extents a file may hold whose product no integer holds: 2e9 x 2e9 x 3 is more work than 1024^3 */
    assert_true(product_shape_compare((struct product_shape){2000000000, 2000000000, 3}, qkv) > 0);
}

/* A list kept in that order, each shape once, no more than its room. */
static void a_list_of_shapes_keeps_its_order_once_each(void **state)
{
    (void)state;
    struct product_shape list[3];
    int n = 0;
    assert_int_equal(product_shapes_insert(list, &n, 3, product_shape_square(4096)), 0);
    assert_int_equal(product_shapes_insert(list, &n, 3, qkv), 0);
    assert_int_equal(product_shapes_insert(list, &n, 3, product_shape_square(4096)), 0);
    assert_int_equal(product_shapes_insert(list, &n, 3, product_shape_square(1024)), 0);
    assert_int_equal(n, 3);
    expect_shape(list[0], 1024, 1024, 1024);
    expect_shape(list[1], 8192, 3072, 1024);
    expect_shape(list[2], 4096, 4096, 4096);
    assert_int_equal(product_shapes_insert(list, &n, 3, product_shape_square(2048)), -1);
    assert_int_equal(product_shapes_insert(list, &n, 3, qkv), 0); /* there already: no room needed */
    assert_int_equal(n, 3);
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Reads dir/name and its shape columns; returns the table (the caller frees it). */
static struct csv_table read_table(const char *name, struct shape_columns *c, int expected_rc, struct error *e)
{
    char path[256];
    struct csv_table t;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct error read = {0};
    expect_ok(csv_table_read(path, &t, &read), &read);
    assert_int_equal(shape_columns_find(&t, c, e), expected_rc);
    return t;
}

static void an_older_file_holds_squares_of_its_widths(void **state)
{
    (void)state;
    struct shape_columns c;
    struct product_shape s;
    struct error e = {0};
    write_file("old.csv", "variant,width\nnaive,1024\n");
    struct csv_table t = read_table("old.csv", &c, 0, &e);
    assert_int_equal(c.rows, -1);
    expect_ok(shape_columns_read(&t, 0, &c, &s, &e), &e);
    expect_shape(s, 1024, 1024, 1024);
    csv_table_free(&t);
}

static void a_newer_file_holds_any_shape(void **state)
{
    (void)state;
    struct shape_columns c;
    struct product_shape s;
    struct error e = {0};
    write_file("new.csv", "variant,width,rows,cols,inner\nnaive,1024,1024,1024,1024\ncublas_bf16,0,8192,3072,1024\n");
    struct csv_table t = read_table("new.csv", &c, 0, &e);
    expect_ok(shape_columns_read(&t, 0, &c, &s, &e), &e);
    expect_shape(s, 1024, 1024, 1024);
    expect_ok(shape_columns_read(&t, 1, &c, &s, &e), &e);
    expect_shape(s, 8192, 3072, 1024);
    csv_table_free(&t);
}

/* A width that is not the square's (or 0 for a rectangle) is refused, naming the line: a hand-edited file. */
static void a_width_that_disagrees_is_refused(void **state)
{
    (void)state;
    struct shape_columns c;
    struct product_shape s;
    struct error e = {0};
    write_file("bad.csv", "variant,width,rows,cols,inner\nnaive,1024,8192,3072,1024\n");
    struct csv_table t = read_table("bad.csv", &c, 0, &e);
    assert_int_equal(shape_columns_read(&t, 0, &c, &s, &e), EXIT_USAGE);
    assert_non_null(strstr(e.message, "bad.csv:2: width 1024 does not match rows x cols x inner 8192 x 3072 x 1024"));
    csv_table_free(&t);
}

static void an_empty_side_beside_others_is_refused(void **state)
{
    (void)state;
    struct shape_columns c;
    struct product_shape s;
    struct error e = {0};
    write_file("empty.csv", "variant,width,rows,cols,inner\nnaive,0,0,3072,1024\n");
    struct csv_table t = read_table("empty.csv", &c, 0, &e);
    assert_int_equal(shape_columns_read(&t, 0, &c, &s, &e), EXIT_USAGE);
    assert_non_null(strstr(e.message, "empty.csv:2: rows x cols x inner 0 x 3072 x 1024: an extent of 0 beside"));
    csv_table_free(&t);
}

static void some_of_the_three_columns_are_refused(void **state)
{
    (void)state;
    struct shape_columns c;
    struct error e = {0};
    write_file("some.csv", "variant,width,rows,cols\nnaive,1024,1024,1024\n");
    struct csv_table t = read_table("some.csv", &c, EXIT_USAGE, &e);
    assert_non_null(strstr(e.message, "rows, cols and inner go together"));
    csv_table_free(&t);
}

/* A batch's capture names each call's shape in its tags; a rectangle comes back whole. */
static void a_capture_tag_keeps_the_shape(void **state)
{
    (void)state;
    static struct prof_capture capture;
    struct tagged_call calls[2] = {{.precision = "bf16", .variant = "wider_tiles", .shape = {8192, 3072, 1024},
                                    .first_range = 0, .ranges = 1, .kernels = {"ws_gemm"}},
                                   {.precision = "fp32", .variant = "naive", .shape = {1024, 1024, 1024},
                                    .first_range = 1, .ranges = 1, .kernels = {"naive_kernel"}}};
    struct tagged_call back;
    char tag[32];
    memset(&capture, 0, sizeof capture);
    assert_int_equal(capture_tags_write(&capture, calls, 2), 0);
    assert_string_equal(prof_capture_tag(&capture, "call0"), "bf16 8192x3072x1024 0 1 wider_tiles");
    assert_string_equal(prof_capture_tag(&capture, "call1"), "fp32 1024 1 1 naive"); /* as before shapes */
    assert_int_equal(capture_tags_call(&capture, 0, &back, tag, sizeof tag), TAGGED_CALL_OK);
    assert_true(product_shape_equal(back.shape, calls[0].shape));
    assert_string_equal(back.variant, "wider_tiles");
    assert_int_equal(capture_tags_call(&capture, 1, &back, tag, sizeof tag), TAGGED_CALL_OK);
    assert_true(product_shape_equal(back.shape, calls[1].shape));
}

static void write_folder_of_one_variant_at_two_shapes(void)
{
    struct csv c;
    struct error e = {0};
    struct environment env = {0};
    env_add(&env, "gpu_name", "NVIDIA H100 80GB HBM3");
    expect_ok(env_write(&env, dir, &e), &e);
    const struct product_shape shapes[] = {product_shape_square(1024), qkv};
    const double median_ms[] = {0.02, 0.07};
    expect_ok(summary_csv_create(&c, dir, &e), &e);
    for (int i = 0; i < 2; ++i) {
        struct summary_row row;
        summary_row_init(&row);
        row.variant = "cublas_bf16", row.precision = "bf16", row.shape = shapes[i], row.status = "passed";
        row.samples = 1 + i, row.median_ms = median_ms[i];
        summary_csv_row(&c, &row);
    }
    expect_ok(csv_close(&c, &e), &e);
    expect_ok(samples_csv_create(&c, dir, &e), &e);
    samples_csv_row(&c, &(struct sample_row){"cublas_bf16", "bf16", shapes[0], 0, 0.02});
    for (int s = 0; s < 2; ++s)
        samples_csv_row(&c, &(struct sample_row){"cublas_bf16", "bf16", shapes[1], s, 0.07});
    expect_ok(csv_close(&c, &e), &e);
    expect_ok(metrics_csv_create(&c, dir, &e), &e);
    for (int i = 0; i < 2; ++i)
        metrics_csv_row(&c, &(struct metric_row){"cublas_bf16", "bf16", shapes[i], "nvjet", "dram_bytes_read",
                                                 1000.0 * (i + 1), "byte"});
    expect_ok(csv_close(&c, &e), &e);
}

static void a_square_and_a_rectangle_of_one_variant_are_two_rows(void **state)
{
    (void)state;
    struct results_folder r;
    struct error e = {0};
    double value;
    write_folder_of_one_variant_at_two_shapes();
    expect_ok(results_folder_open(dir, &r, &e), &e);
    assert_int_equal(results_summary_row(&r, "cublas_bf16", product_shape_square(1024)), 0);
    assert_int_equal(results_summary_row(&r, "cublas_bf16", qkv), 1);
    assert_int_equal(results_summary_row(&r, "cublas_bf16", product_shape_square(8192)), -1);
    assert_string_equal(csv_table_text(&r.summary, 1, SUMMARY_WIDTH), "0");
    assert_string_equal(csv_table_text(&r.summary, 1, SUMMARY_ROWS), "8192");
    assert_string_equal(csv_table_text(&r.summary, 1, SUMMARY_INNER), "1024");
    assert_int_equal(r.sample_summary_row[0], 0);
    assert_int_equal(r.sample_summary_row[2], 1);
    expect_ok(results_metric_sum(&r, "cublas_bf16", qkv, "dram_bytes_read", &value, &e), &e);
    assert_true(value == 2000.0);
    expect_ok(results_metric_sum(&r, "cublas_bf16", product_shape_square(1024), "dram_bytes_read", &value, &e), &e);
    assert_true(value == 1000.0);
    results_folder_close(&r);
}

/* The samples count per shape: a rectangle's samples are not the square's. */
static void samples_are_counted_per_shape(void **state)
{
    (void)state;
    struct results_folder r;
    struct error e = {0};
    write_folder_of_one_variant_at_two_shapes();
    write_file("samples.csv", "variant,precision,width,sample,time_ms,rows,cols,inner\n"
                              "cublas_bf16,bf16,1024,0,0.02,1024,1024,1024\n"
                              "cublas_bf16,bf16,1024,1,0.02,1024,1024,1024\n"
                              "cublas_bf16,bf16,0,0,0.07,8192,3072,1024\n");
    assert_int_equal(results_folder_open(dir, &r, &e), EXIT_USAGE);
    assert_non_null(strstr(e.message, "2 samples of cublas_bf16 at W=1024, but"));
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
        cmocka_unit_test(a_width_or_three_extents_parse),
        cmocka_unit_test(anything_else_is_no_shape),
        cmocka_unit_test(a_square_reads_as_its_width),
        cmocka_unit_test(shapes_order_by_their_work),
        cmocka_unit_test(a_list_of_shapes_keeps_its_order_once_each),
        cmocka_unit_test(an_older_file_holds_squares_of_its_widths),
        cmocka_unit_test(a_newer_file_holds_any_shape),
        cmocka_unit_test(a_width_that_disagrees_is_refused),
        cmocka_unit_test(an_empty_side_beside_others_is_refused),
        cmocka_unit_test(some_of_the_three_columns_are_refused),
        cmocka_unit_test(a_capture_tag_keeps_the_shape),
        cmocka_unit_test(a_square_and_a_rectangle_of_one_variant_are_two_rows),
        cmocka_unit_test(samples_are_counted_per_shape),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
