/*
 * The scripts a user calls answer --help and -h as the programs do (tests/common/test_help.c): their usage on
 * standard output, nothing on standard error, exit 0, before anything else (no build, no GPU, no folder).
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../support/run_shell.h"

static const char *const scripts[] = {
    "compare-results", "compare-revisions", "report-render", "history-render",
    "compare-chart",   "trace-view",        "trace-check",
};

/* Whether the script answered as it should; says how it did not otherwise. */
static bool answers_help(const char *script, const char *flag)
{
    static struct outcome o, err;
    char errors[64], usage[64];
    snprintf(errors, sizeof errors, "/tmp/memscope-scripts-help-%d.err", (int)getpid());
    snprintf(usage, sizeof usage, "usage: scripts/%s ", script);
    shell(&o, "(scripts/%s %s 2>%s)", script, flag, errors); /* standard output alone */
    shell(&err, "cat %s && rm %s", errors, errors);
    bool answered = o.exit_code == 0 && strncmp(o.output, usage, strlen(usage)) == 0 && !err.output[0];
    if (!answered)
        print_message("scripts/%s %s: expected exit 0, \"%s...\" on standard output and nothing on standard error; "
                      "got %d:\n%s\nstandard error:\n%s\n",
                      script, flag, usage, o.exit_code, o.output, err.output);
    return answered;
}

static void every_script_answers_help_on_standard_output(void **state)
{
    (void)state;
    int wrong = 0;
    for (size_t i = 0; i < sizeof scripts / sizeof *scripts; ++i)
        wrong += !answers_help(scripts[i], "--help") + !answers_help(scripts[i], "-h");
    assert_int_equal(wrong, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_script_answers_help_on_standard_output),
    };
    return cmocka_run_group_tests_name("scripts_help", tests, NULL, NULL);
}
