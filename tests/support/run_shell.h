/* Running a shell command from a test: its exit code and its output (stdout and stderr). */
#ifndef MEMSCOPE_RUN_SHELL_H
#define MEMSCOPE_RUN_SHELL_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

struct outcome {
    int exit_code;
    char output[1 << 18]; /* enough for the whole text of a report PDF */
};

static void shell(struct outcome *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void shell(struct outcome *o, const char *fmt, ...)
{
    char command[2048];
    va_list args;
    va_start(args, fmt);
    vsnprintf(command, sizeof command - 8, fmt, args);
    va_end(args);
    strcat(command, " 2>&1");
    FILE *p = popen(command, "r");
    assert_non_null(p);
    size_t used = fread(o->output, 1, sizeof o->output - 1, p);
    o->output[used] = '\0';
    int status = pclose(p);
    assert_true(WIFEXITED(status));
    o->exit_code = WEXITSTATUS(status);
}

#endif
