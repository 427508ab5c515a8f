/* Every violation of a rule a test finds, one per line, reported at once: the reader fixes them all in one go.
 * Include after <cmocka.h>. */
#ifndef MEMSCOPE_FINDINGS_H
#define MEMSCOPE_FINDINGS_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct findings {
    int count;
    char text[1 << 15];
};

static void note(struct findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct findings *f, const char *fmt, ...)
{
    size_t used = strlen(f->text);
    va_list args;
    va_start(args, fmt);
    vsnprintf(f->text + used, sizeof f->text - used, fmt, args);
    va_end(args);
    used = strlen(f->text);
    if (used + 1 < sizeof f->text)
        strcat(f->text, "\n");
    f->count++;
}

static void expect_none(const struct findings *f, const char *rule)
{
    if (f->count) {
        fputs(f->text, stderr); /* in full: cmocka cuts a failure's message short, at about 1 KB */
        fail_msg("%s; %d violation(s), listed above", rule, f->count);
    }
}

#endif
