/*
 * Every memscope program answers --help and -h: its usage on standard output, nothing on standard error, exit 0,
 * whatever else it needs (no GPU, no results folder). The programs come from tests/run-all's variables.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../support/run_shell.h"

struct program {
    const char *name, *variable, *arguments; /* arguments: before --help, a subcommand */
};

static const struct program programs[] = {
    {"memscope", "MEMSCOPE_BIN", ""},
    {"memscope-decode", "MEMSCOPE_DECODE_BIN", ""},
    {"memscope-report-data", "MEMSCOPE_REPORT_DATA", ""},
    {"memscope-compare", "MEMSCOPE_COMPARE", ""},
    {"memscope-history", "MEMSCOPE_HISTORY", ""},
    {"memscope-history", "MEMSCOPE_HISTORY", "chart-data"},
    {"memscope-history", "MEMSCOPE_HISTORY", "add"},
    {"memscope-profile", "MEMSCOPE_PROFILE", ""},
};

/* Whether the program answered as it should; says how it did not otherwise. */
static bool answers_help(const struct program *p, const char *flag)
{
    static struct outcome o, err;
    char fallback[64], errors[64], usage[64];
    snprintf(fallback, sizeof fallback, "build/%s", p->name);
    snprintf(errors, sizeof errors, "/tmp/memscope-help-%d.err", (int)getpid());
    snprintf(usage, sizeof usage, "usage: %s", p->name);
    const char *path = getenv(p->variable) ? getenv(p->variable) : fallback;
    shell(&o, "(%s %s %s 2>%s)", path, p->arguments, flag, errors); /* standard output alone */
    shell(&err, "cat %s && rm %s", errors, errors);
    bool answered = o.exit_code == 0 && strncmp(o.output, usage, strlen(usage)) == 0 && !err.output[0];
    if (!answered)
        print_message("%s %s %s: expected exit 0, \"%s...\" on standard output and nothing on standard error; got %d:\n"
                      "%s\nstandard error:\n%s\n",
                      p->name, p->arguments, flag, usage, o.exit_code, o.output, err.output);
    return answered;
}

static void every_program_answers_help_on_standard_output(void **state)
{
    (void)state;
    int wrong = 0;
    for (size_t i = 0; i < sizeof programs / sizeof *programs; ++i)
        wrong += !answers_help(&programs[i], "--help") + !answers_help(&programs[i], "-h");
    assert_int_equal(wrong, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_program_answers_help_on_standard_output),
    };
    return cmocka_run_group_tests_name("help", tests, NULL, NULL);
}
