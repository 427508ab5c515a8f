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

/* The first length characters of text inside a gnuplot single-quoted string. A quote closes the string, joins a
 * double-quoted quote to it and opens the next: gnuplot 5.4 reads a doubled quote ('it''s') only after another
 * character, and not at a string's start. */
static void put_quoted_part(FILE *f, const char *text, size_t length)
{
    for (const char *p = text; p < text + length && *p; ++p)
        if (*p == '\'')
            fputs("'.\"'\".'", f);
        else
            fputc(ends_a_line(*p) ? ' ' : *p, f);
}

void report_put_quoted(FILE *f, const char *text)
{
    put_quoted_part(f, text, strlen(text));
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

void report_put_wrapped(FILE *f, const char *name, const char *text, int columns)
{
    fprintf(f, "%s = '", name);
    int used = 0;
    for (const char *word = text; *word;) {
        int length = (int)strcspn(word, " ");
        if (used > 0 && used + 1 + length > columns) {
            fputs("'.\"\\n\".'", f);
            used = 0;
        } else if (used > 0) {
            fputc(' ', f);
            ++used;
        }
        put_quoted_part(f, word, (size_t)length);
        used += length;
        word += length + strspn(word + length, " ");
    }
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

/* DejaVu Sans's advance widths for ASCII 32 to 126, in 1/2048 em (DejaVuSans.ttf's hmtx table, fonts-dejavu-core
 * 2.37, as Debian 12 installs it). */
static const unsigned short dejavu_sans_advance[95] = {
    651,  821,  942,  1716, 1303, 1946, 1597, 563,  799,  799,  1024, 1716, 651,  739,  651,  690,  1303, 1303, 1303,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 690,  690,  1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577, 1294,
    1178, 1587, 1540, 604,  604,  1343, 1141, 1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403,
    1251, 1403, 799,  690,  799,  1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721,  1300, 1298, 569,  569,  1186,
    569,  1995, 1298, 1253, 1300, 1300, 842,  1067, 803,  1298, 1212, 1675, 1212, 1212, 1075, 1303, 690,  1303, 1716};

double report_text_width_pt(const char *text, double font_pt)
{
    double units = 0.0;
    for (const unsigned char *p = (const unsigned char *)text; *p; ++p)
        if (*p >= 32 && *p < 127)
            units += dejavu_sans_advance[*p - 32];
        else if ((*p & 0xC0) != 0x80) /* the first byte of any other character; its continuation bytes add none */
            units += 2048.0;
    return units / 2048.0 * font_pt;
}

/* The page gnuplot draws on: A4 landscape (report-render's pdfcairo size), in points. */
#define PAGE_WIDTH_PT 841.89
/* gnuplot's cairo terminals set DejaVu Sans at a nominal N points about 0.7 N points wide on that page (the PNG's
 * hinting a little wider than the PDF: docs/report.md gives the measurement); with a margin. */
#define SET_WIDTH_PER_POINT 0.72
/* table.gp's plot spans the page from 0.04 to 0.98 (its margins): a column's x is a share of that. */
#define TABLE_PLOT_SHARE 0.94
/* Between a column's widest cell and the next column, in points. */
#define COLUMN_GAP_PT 8.0
#define LAYOUT_MAX_COLUMNS 32

/* The widest cell of each of the columns, in ems (1 point at a 1-point font), from the table's lines. */
static int widest_cells(const char *path, int first, int columns, double widest[], struct error *e)
{
    char line[8192];
    FILE *f = fopen(path, "r");
    if (!f)
        return error_set(e, EXIT_OUTPUT, "cannot read back %s: %s", path, strerror(errno));
    for (int c = 0; c < columns; ++c)
        widest[c] = 0.0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *cell = line;
        for (int c = 1; cell && c < first + columns; ++c) {
            char *tab = strchr(cell, '\t');
            if (tab)
                *tab = '\0';
            if (c >= first)
                widest[c - first] = fmax(widest[c - first], report_text_width_pt(cell, 1.0));
            cell = tab ? tab + 1 : NULL;
        }
    }
    fclose(f);
    return 0;
}

int report_table_layout(FILE *variables, const char *name, const char *path, int first, int columns, double left,
                        double right, double max_pt, double min_pt, struct error *e)
{
    double widest[LAYOUT_MAX_COLUMNS], x[LAYOUT_MAX_COLUMNS], pt = max_pt;
    if (columns < 1 || columns > LAYOUT_MAX_COLUMNS)
        return error_set(e, EXIT_USAGE, "a table of %d columns: from 1 to %d", columns, LAYOUT_MAX_COLUMNS);
    if (widest_cells(path, first, columns, widest, e))
        return e->code;
    for (;; pt -= 0.5) {
        x[0] = left;
        double set = pt * SET_WIDTH_PER_POINT, plot = PAGE_WIDTH_PT * TABLE_PLOT_SHARE;
        for (int c = 1; c < columns; ++c)
            x[c] = x[c - 1] + (widest[c - 1] * set + COLUMN_GAP_PT) / plot;
        if (x[columns - 1] + widest[columns - 1] * set / plot <= right || pt - 0.5 < min_pt)
            break;
    }
    fprintf(variables, "%s_x = \"", name);
    for (int c = 0; c < columns; ++c)
        fprintf(variables, "%s%.4f", c ? " " : "", x[c]);
    fprintf(variables, "\"\n%s_font_size = %.1f\n", name, pt);
    return 0;
}

void report_format_size(char *out, size_t size, struct product_shape shape)
{
    int width = product_shape_width(shape);
    if (width || shape.rows == 0)
        snprintf(out, size, "W = %d", width);
    else
        snprintf(out, size, "%d x %d x %d", shape.rows, shape.cols, shape.inner);
}
