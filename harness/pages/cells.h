/* Writing the report's data files: opening and closing them with errors that name the file, and formatting
 * the cells of its tab-separated tables ("not collected" where a value is missing). */
#ifndef MEMSCOPE_REPORT_CELLS_H
#define MEMSCOPE_REPORT_CELLS_H

#include <stddef.h>
#include <stdio.h>

#include "../common/error.h"

FILE *report_open(const char *dir, const char *name, char *path, size_t size, struct error *e);
int report_close(FILE *f, const char *path, struct error *e);
/* Tab-separated cells must not hold tabs or newlines; gnuplot strings must not hold a quote or a backslash (which
 * end them) or a backquote (gnuplot runs `...` as a shell command, even inside a string). */
void report_put_clean(FILE *f, const char *text);
void report_put_cell(FILE *f, const char *text, int last);
/* A number for a chart: NaN where missing. */
void report_put_value(FILE *f, double value, int last);
/* Gnuplot assignments: name = "text" (cleaned; "unknown" for NULL), name = number (NaN where missing). */
void report_put_variable(FILE *f, const char *name, const char *value);
void report_put_number(FILE *f, const char *name, double value);
void report_format_number(char *out, size_t size, double value, const char *format);
/* Counts with thousands separators: 32,505,856. */
void report_format_count(char *out, size_t size, double value);

#endif
