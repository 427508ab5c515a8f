#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"

FILE *report_open(const char *dir, const char *name, char *path, size_t size, struct error *e)
{
    snprintf(path, size, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
    return f;
}

int report_close(FILE *f, const char *path, struct error *e)
{
    int failed = ferror(f);
    if (fclose(f) != 0 || failed)
        return error_set(e, EXIT_OUTPUT, "writing %s failed", path);
    return 0;
}

static int ends_a_line(char c)
{
    return c == '\t' || c == '\n' || c == '\r';
}

/* gnuplot 5.4 cuts a data string at its first double quote, before reading escapes: the quote goes in as the
 * octal escape \042, which the first reading turns into the character; a backslash goes in as four, which the
 * two readings halve twice. */
static void put_cell_text(FILE *f, const char *text)
{
    for (const char *p = text; *p; ++p)
        if (ends_a_line(*p))
            fputc(' ', f);
        else if (*p == '"')
            fputs("\\042", f);
        else if (*p == '\\')
            fputs("\\\\\\\\", f);
        else
            fputc(*p, f);
}

void report_put_pair(FILE *f, const char *label, const char *value)
{
    report_put_cell(f, label, 0);
    report_put_cell(f, value && *value ? value : "unknown", 1);
}

void report_put_quoted(FILE *f, const char *text)
{
    for (const char *p = text; *p; ++p) {
        if (*p == '\'')
            fputc('\'', f);
        fputc(ends_a_line(*p) ? ' ' : *p, f);
    }
}

void report_format_number(char *out, size_t size, double value, const char *format)
{
    if (isnan(value))
        snprintf(out, size, "not collected");
    else
        snprintf(out, size, format, value);
}

void report_format_significant(char *out, size_t size, double value, int digits)
{
    char rounded[64];
    if (isnan(value) || value == 0) {
        report_format_number(out, size, value, "%.0f");
        return;
    }
    /* The exponent of the value rounded to digits: 9.9996 rounds to 1.000e+01, so it reads 10.00, not 9.9996. */
    snprintf(rounded, sizeof rounded, "%.*e", digits - 1, value);
    int exponent = atoi(strchr(rounded, 'e') + 1), decimals = digits - 1 - exponent;
    snprintf(out, size, "%.*f", decimals > 0 ? decimals : 0, value);
}

void report_format_occupancy(char *out, size_t size, double theoretical, double achieved)
{
    char a[16] = "-", b[16] = "-";
    if (!isnan(theoretical))
        snprintf(a, sizeof a, "%.1f", theoretical);
    if (!isnan(achieved))
        snprintf(b, sizeof b, "%.1f", achieved);
    snprintf(out, size, "%s / %s", a, b);
}

void report_format_speed_change(char *out, size_t size, double before_ms, double after_ms, int decimals)
{
    double ratio = before_ms / after_ms;
    snprintf(out, size, "%.*fx %s", decimals, ratio >= 1 ? ratio : 1 / ratio, ratio >= 1 ? "faster" : "slower");
}

/* Counts with thousands separators: 32,505,856. */
void report_format_count(char *out, size_t size, double value)
{
    char digits[64];
    if (isnan(value)) {
        snprintf(out, size, "not collected");
        return;
    }
    snprintf(digits, sizeof digits, "%.0f", fabs(value));
    size_t n = strlen(digits), at = 0;
    if (value < 0 && at + 1 < size)
        out[at++] = '-';
    for (size_t i = 0; i < n && at + 2 < size; ++i) {
        if (i > 0 && (n - i) % 3 == 0)
            out[at++] = ',';
        out[at++] = digits[i];
    }
    out[at] = '\0';
}

void report_put_cell(FILE *f, const char *text, int last)
{
    put_cell_text(f, text);
    fputc(last ? '\n' : '\t', f);
}

void report_put_value(FILE *f, double value, int last)
{
    if (isnan(value))
        fputs("NaN", f);
    else
        fprintf(f, "%.6g", value);
    fputc(last ? '\n' : '\t', f);
}

void report_put_variable(FILE *f, const char *name, const char *value)
{
    fprintf(f, "%s = '", name);
    report_put_quoted(f, value ? value : "unknown");
    fputs("'\n", f);
}

void report_put_number(FILE *f, const char *name, double value)
{
    if (!isfinite(value))
        fprintf(f, "%s = NaN\n", name);
    else
        fprintf(f, "%s = %.6g\n", name, value);
}

void report_format_gain(char *out, size_t size, double pct)
{
    for (int decimals = 0; decimals < 6; ++decimals) {
        snprintf(out, size, "%.*f", decimals, pct);
        if (!(pct < 100.0) || atof(out) < 100.0)
            return;
    }
}
