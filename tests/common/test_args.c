/*
 * The one command-line parser every program uses, and the numbers under it: a value that is a number but out of
 * range is refused as too small or too large with the limit, never as "not a number", however far out it is
 * (beyond a long, beyond a double).
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/common/args.h"
#include "../../harness/common/numbers.h"

static long count;
static double floor_pct;

/* Options like memscope-history's --width and memscope-compare's --floor. */
static void expect_refused(const char *option, const char *value, const char *expected_in_message)
{
    const struct arg_option options[] = {
        {"count", 0, ARG_LONG, &count, 1, 1000, NULL},
        {"floor", 0, ARG_REAL, &floor_pct, 0, 100, NULL},
    };
    char *argv[] = {"program", (char *)option, (char *)value, NULL};
    struct error e = {0};
    int none;
    assert_int_equal(args_parse(3, argv, options, 2, NULL, 0, &none, &e), EXIT_USAGE);
    if (!strstr(e.message, expected_in_message))
        fail_msg("message \"%s\" lacks \"%s\"", e.message, expected_in_message);
}

static void numbers_out_of_range_are_too_small_or_too_large(void **state)
{
    (void)state;
    expect_refused("--count", "1001", "--count: '1001' is too large (at most 1000)");
    expect_refused("--count", "99999999999999999999", "--count: '99999999999999999999' is too large (at most 1000)");
    expect_refused("--count", "0", "--count: '0' is too small (at least 1)");
    expect_refused("--count", "-99999999999999999999", "'-99999999999999999999' is too small (at least 1)");
    expect_refused("--floor", "1e308", "--floor: '1e308' is too large (at most 100)");
    expect_refused("--floor", "1e999", "--floor: '1e999' is too large (at most 100)");
    expect_refused("--floor", "inf", "--floor: 'inf' is too large (at most 100)");
    expect_refused("--floor", "-1e999", "--floor: '-1e999' is too small (at least 0)");
}

static void what_is_no_number_is_said_so(void **state)
{
    (void)state;
    expect_refused("--count", "12abc", "--count: '12abc' is not a whole number from 1 to 1000");
    expect_refused("--count", "2.5", "--count: '2.5' is not a whole number from 1 to 1000");
    expect_refused("--floor", "ten", "--floor: 'ten' is not a number from 0 to 100");
    expect_refused("--floor", "nan", "--floor: 'nan' is not a number from 0 to 100");
}

static void readings_say_why(void **state)
{
    (void)state;
    long whole = 0;
    double real = 0;
    assert_int_equal(parse_long("99999999999999999999", LONG_MIN, LONG_MAX, &whole), NUMBER_TOO_LARGE);
    assert_int_equal(parse_long("-99999999999999999999", LONG_MIN, LONG_MAX, &whole), NUMBER_TOO_SMALL);
    assert_int_equal(parse_long("", 0, 1, &whole), NUMBER_MALFORMED);
    assert_int_equal(parse_long("7", 0, 9, &whole), NUMBER_OK);
    assert_int_equal(whole, 7);
    assert_int_equal(parse_real("1e999", -HUGE_VAL, HUGE_VAL, &real), NUMBER_TOO_LARGE);
    assert_int_equal(parse_real("-inf", -HUGE_VAL, HUGE_VAL, &real), NUMBER_TOO_SMALL);
    assert_int_equal(parse_real("0.5", 0, 1, &real), NUMBER_OK);
    assert_true(real == 0.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers_out_of_range_are_too_small_or_too_large),
        cmocka_unit_test(what_is_no_number_is_said_so),
        cmocka_unit_test(readings_say_why),
    };
    return cmocka_run_group_tests_name("args", tests, NULL, NULL);
}
