/* Writing CSV: the exact bytes of small files, and the error for a folder that is not there;
 * reading it back from a file a spreadsheet saved. */
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

#include "../../harness/csv/writer.h"
#include "../../harness/csv/reader.h"

struct fixture {
    char dir[64];
    char path[128];
};

static int make_folder(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    snprintf(f->dir, sizeof f->dir, "/tmp/memscope-test-csv-XXXXXX");
    if (!mkdtemp(f->dir)) {
        free(f);
        return -1;
    }
    snprintf(f->path, sizeof f->path, "%s/t.csv", f->dir);
    *state = f;
    return 0;
}

static int remove_folder(void **state)
{
    struct fixture *f = *state;
    unlink(f->path);
    int rc = rmdir(f->dir);
    free(f);
    return rc;
}

static void create_in(struct fixture *f, struct csv *c, const char *header)
{
    struct error e = {0};
    if (csv_create(c, f->dir, "t.csv", header, &e) != 0)
        fail_msg("csv_create: %s", e.message);
    assert_string_equal(c->path, f->path);
}

static void close_ok(struct csv *c)
{
    struct error e = {0};
    if (csv_close(c, &e) != 0)
        fail_msg("csv_close: %s", e.message);
    assert_null(c->file);
}

static void assert_file_is(const char *path, const char *expected)
{
    char buf[1024];
    FILE *file = fopen(path, "rb");
    assert_non_null(file);
    size_t len = fread(buf, 1, sizeof buf - 1, file);
    fclose(file);
    buf[len] = '\0';
    if (len != strlen(expected) || memcmp(buf, expected, len) != 0)
        fail_msg("file holds\n[%s]\nexpected\n[%s]", buf, expected);
}

static void header_only(void **state)
{
    struct fixture *f = *state;
    struct csv c;
    create_in(f, &c, "variant,width");
    close_ok(&c);
    assert_file_is(f->path, "variant,width\n");
}

static void plain_fields_and_rows(void **state)
{
    struct fixture *f = *state;
    struct csv c;
    create_in(f, &c, "name,n,x");
    csv_text(&c, "naive");
    csv_int(&c, 1024);
    csv_real(&c, 1.5);
    csv_end_row(&c);
    csv_text(&c, "tiled_32");
    csv_int(&c, -7);
    csv_real(&c, 0.1);
    csv_end_row(&c);
    close_ok(&c);
    assert_file_is(f->path, "name,n,x\nnaive,1024,1.5\ntiled_32,-7,0.1\n");
}

static void quoting_follows_rfc4180(void **state)
{
    struct fixture *f = *state;
    struct csv c;
    create_in(f, &c, "a,b,c,d,e");
    csv_text(&c, "x,y");
    csv_text(&c, "say \"hi\"");
    csv_text(&c, "two\nlines");
    csv_text(&c, "cr\rhere");
    csv_text(&c, "");
    csv_end_row(&c);
    close_ok(&c);
    assert_file_is(f->path, "a,b,c,d,e\n\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\rhere\",\n");
}

static void lone_quote_is_doubled_and_enclosed(void **state)
{
    struct fixture *f = *state;
    struct csv c;
    create_in(f, &c, "q");
    csv_text(&c, "\"");
    csv_end_row(&c);
    close_ok(&c);
    assert_file_is(f->path, "q\n\"\"\"\"\n");
}

static void non_finite_reals_are_empty_fields(void **state)
{
    struct fixture *f = *state;
    struct csv c;
    create_in(f, &c, "a,b,c,d");
    csv_real(&c, NAN);
    csv_real(&c, INFINITY);
    csv_real(&c, -INFINITY);
    csv_real(&c, 2.0);
    csv_end_row(&c);
    close_ok(&c);
    assert_file_is(f->path, "a,b,c,d\n,,,2\n");
}

/* Counter values are whole numbers and must survive exactly (1073741824 once became 1.07374182e+09). */
static void whole_numbers_exact_others_ten_digits(void **state)
{
    struct fixture *f = *state;
    struct csv c;
    create_in(f, &c, "r");
    const double values[] = {0.1, 1e-12, 123456789.0, 1073741824.0, 1.0 / 3.0, 0.0, -2.5e300};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; ++i) {
        csv_real(&c, values[i]);
        csv_end_row(&c);
    }
    close_ok(&c);
    assert_file_is(f->path, "r\n0.1\n1e-12\n123456789\n1073741824\n0.3333333333\n0\n-2.5e+300\n");
}

static void integers_span_long_long(void **state)
{
    struct fixture *f = *state;
    struct csv c;
    create_in(f, &c, "a,b,c");
    csv_int(&c, 0);
    csv_int(&c, 9223372036854775807LL);
    csv_int(&c, -9223372036854775807LL - 1);
    csv_end_row(&c);
    close_ok(&c);
    assert_file_is(f->path, "a,b,c\n0,9223372036854775807,-9223372036854775808\n");
}

static void empty_fields_keep_separators(void **state)
{
    struct fixture *f = *state;
    struct csv c;
    create_in(f, &c, "a,b,c");
    csv_empty(&c);
    csv_text(&c, "mid");
    csv_empty(&c);
    csv_end_row(&c);
    csv_empty(&c);
    csv_empty(&c);
    csv_empty(&c);
    csv_end_row(&c);
    close_ok(&c);
    assert_file_is(f->path, "a,b,c\n,mid,\n,,\n");
}

static void create_in_missing_folder_fails(void **state)
{
    struct fixture *f = *state;
    char missing[96];
    snprintf(missing, sizeof missing, "%s/absent", f->dir);
    struct csv c;
    struct error e = {0};
    assert_int_equal(csv_create(&c, missing, "t.csv", "a", &e), EXIT_OUTPUT);
    assert_int_equal(e.code, EXIT_OUTPUT);
    char expected_path[128];
    snprintf(expected_path, sizeof expected_path, "%s/t.csv", missing);
    if (!strstr(e.message, expected_path))
        fail_msg("message \"%s\" lacks the path %s", e.message, expected_path);
}

static void write_bytes(const char *path, const char *bytes)
{
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    assert_int_equal(fputs(bytes, file) >= 0, 1);
    assert_int_equal(fclose(file), 0);
}

static void read_ok(const char *path, struct csv_table *t)
{
    struct error e = {0};
    if (csv_table_read(path, t, &e) != 0)
        fail_msg("csv_table_read: %s", e.message);
}

static void reader_skips_a_utf8_byte_order_mark(void **state)
{
    struct fixture *f = *state;
    write_bytes(f->path, "\xEF\xBB\xBFvariant,width\nnaive,1024\n");
    struct csv_table t;
    read_ok(f->path, &t);
    assert_int_equal(csv_table_column_or_none(&t, "variant"), 0);
    assert_int_equal(t.rows, 1);
    assert_string_equal(csv_table_text(&t, 0, 0), "naive");
    csv_table_free(&t);
}

static void reader_keeps_a_first_byte_that_only_looks_like_a_mark(void **state)
{
    struct fixture *f = *state;
    write_bytes(f->path, "\xEF\xBBx,width\n1,2\n");
    struct csv_table t;
    read_ok(f->path, &t);
    assert_string_equal(t.header[0], "\xEF\xBBx");
    csv_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(header_only, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(plain_fields_and_rows, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(quoting_follows_rfc4180, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(lone_quote_is_doubled_and_enclosed, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(non_finite_reals_are_empty_fields, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(whole_numbers_exact_others_ten_digits, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(integers_span_long_long, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(empty_fields_keep_separators, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(create_in_missing_folder_fails, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(reader_skips_a_utf8_byte_order_mark, make_folder, remove_folder),
        cmocka_unit_test_setup_teardown(reader_keeps_a_first_byte_that_only_looks_like_a_mark, make_folder, remove_folder),
    };
    return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
