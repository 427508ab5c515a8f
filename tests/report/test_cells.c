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

static void a_quote_is_doubled_and_runs_of_spaces_are_one(void **state)
{
    (void)state;
    assert_string_equal(wrapped("it's   here", 40), "note = 'it''s here'\n");
    assert_string_equal(wrapped("", 40), "note = ''\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_line_that_fits_stays_one_string),
        cmocka_unit_test(a_longer_text_breaks_between_words),
        cmocka_unit_test(a_word_longer_than_a_line_stands_alone),
        cmocka_unit_test(a_quote_is_doubled_and_runs_of_spaces_are_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
