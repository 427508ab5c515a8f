/* The report's gnuplot assignments of text (harness/report/cells.c): a caption whose words the data choose is
 * wrapped between words, and every piece stays a single-quoted gnuplot string. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/report/cells.h"
#include "../support/run_shell.h"

static char *wrapped(const char *text, int columns)
{
    static char out[512];
    FILE *f = fmemopen(out, sizeof out, "w");
    assert_non_null(f);
    report_put_wrapped(f, "note", text, columns);
    fclose(f);
    return out;
}

static void a_line_that_fits_stays_one_string(void **state)
{
    (void)state;
    assert_string_equal(wrapped("a = b; c = d.", 13), "note = 'a = b; c = d.'\n");
}

/* 11 columns: "a_b = c_d =" would be 11, "e_f" then starts the second line; lines are joined by gnuplot's "\n". */
static void a_longer_text_breaks_between_words(void **state)
{
    (void)state;
    assert_string_equal(wrapped("a_b = c_d = e_f.", 11), "note = 'a_b = c_d ='.\"\\n\".'e_f.'\n");
}

static void a_word_longer_than_a_line_stands_alone(void **state)
{
    (void)state;
    assert_string_equal(wrapped("x abcdefgh y", 4), "note = 'x'.\"\\n\".'abcdefgh'.\"\\n\".'y'\n");
}

/* A quote closes the piece, joins a double-quoted quote and opens the next, wherever it stands. */
static void a_quote_closes_the_string_and_runs_of_spaces_are_one(void **state)
{
    (void)state;
    assert_string_equal(wrapped("it's   here", 40), "note = 'it'.\"'\".'s here'\n");
    assert_string_equal(wrapped("'x' y", 40), "note = ''.\"'\".'x'.\"'\".' y'\n");
    assert_string_equal(wrapped("", 40), "note = ''\n");
}

/* gnuplot 5.4 reads the assignment back as the text, broken where report_put_wrapped broke it, with the quotes that
 * a doubled quote would lose at a line's start ('''x' is no string to it). */
static void gnuplot_reads_back_the_text_with_its_line_breaks(void **state)
{
    (void)state;
    static struct outcome o;
    if (system("command -v gnuplot >/dev/null") != 0) {
        print_message("gnuplot missing: the read-back is skipped\n");
        skip();
    }
    const char *path = "/tmp/memscope-test-cells.gp";
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    report_put_wrapped(f, "note", "a = 'b' = c_d; it's", 4);
    fputs("print note\n", f);
    fclose(f);
    shell(&o, "gnuplot %s 2>&1", path);
    remove(path);
    assert_int_equal(o.exit_code, 0);
    assert_string_equal(o.output, "a =\n'b'\n=\nc_d;\nit's\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_line_that_fits_stays_one_string),
        cmocka_unit_test(a_longer_text_breaks_between_words),
        cmocka_unit_test(a_word_longer_than_a_line_stands_alone),
        cmocka_unit_test(a_quote_closes_the_string_and_runs_of_spaces_are_one),
        cmocka_unit_test(gnuplot_reads_back_the_text_with_its_line_breaks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
