/* Writing the report's data files: opening and closing them with errors that name the file, and formatting
 * the cells of its tab-separated tables ("not collected" where a value is missing). */
#ifndef MEMSCOPE_REPORT_CELLS_H
#define MEMSCOPE_REPORT_CELLS_H

#include <stddef.h>
#include <stdio.h>

#include "../common/error.h"
#include "../results/product_shape.h"

FILE *report_open(const char *dir, const char *name, char *path, size_t size, struct error *e);
int report_close(FILE *f, const char *path, struct error *e);
/* A cell of a tab-separated table, drawn by gnuplot as it is: a tab or line break becomes a space (it would end
 * the cell or the row), a double quote and a backslash are escaped for gnuplot's reading of data strings (it ends
 * a string at a quote, and reads escapes twice: once as data, once as the label's text). */
void report_put_cell(FILE *f, const char *text, int last);
/* A row of two cells, label and value: a title page's line ("unknown" for a value NULL or empty). */
void report_put_pair(FILE *f, const char *label, const char *value);
/* The inside of a gnuplot single-quoted string: every character is itself (no escapes, no `command`) but the
 * quote, which closes the string, joins a double-quoted quote and opens the next ('it'."'".'s'); a tab or line
 * break, which would end the assignment, becomes a space. */
void report_put_quoted(FILE *f, const char *text);
/* A number for a chart: NaN where missing. */
void report_put_value(FILE *f, double value, int last);
/* Gnuplot assignments: name = 'text' (report_put_quoted; "unknown" for NULL), name = number (NaN where missing). */
void report_put_variable(FILE *f, const char *name, const char *value);
/* name = 'text' in lines of at most columns characters, broken between words (a longer word stands alone): for a
 * caption whose words the data choose. */
void report_put_wrapped(FILE *f, const char *name, const char *text, int columns);
void report_put_number(FILE *f, const char *name, double value);
void report_format_number(char *out, size_t size, double value, const char *format);
/* A figure to so many significant digits, trailing zeros kept: 0.2480, 22.46, 275.9 (4 digits). */
void report_format_significant(char *out, size_t size, double value, int digits);
/* Occupancy "theoretical / achieved" in %, to one decimal (12.5, not 12), each "-" where unknown (a library call
 * has no theoretical figure). */
void report_format_occupancy(char *out, size_t size, double theoretical, double achieved);
/* "12.3x faster" (decimals 1): the median time before over the median time after, or its inverse, "slower". */
void report_format_speed_change(char *out, size_t size, double before_ms, double after_ms, int decimals);
/* An estimated gain in %, whole (58) unless that would read 100 for a gain below it: 99.5 is not the whole kernel,
 * so it keeps the decimals that say so (99.5, 99.96). */
void report_format_gain(char *out, size_t size, double pct);
/* The width of text in DejaVu Sans (what fontconfig gives gnuplot's "Sans" on Debian: a fresh machine's font) at
 * font_pt points, in points: each ASCII character's advance, any other the em (the widest). gnuplot's terminals set
 * a font smaller than its nominal size (report_table_layout scales). */
double report_text_width_pt(const char *text, double font_pt);

/* A table's layout from the widths its cells take: the TSV file at path (written by report_put_cell: a header line,
 * then rows) read back, and columns first to first + columns - 1 (1-based) set from left (in table.gp's plot, 0 to 1
 * across its margins) with each column as wide as its widest cell and a gap after it, in the largest font from
 * max_pt down to min_pt (by half points) at which the last column's widest cell ends before right. Written to
 * variables as name_x (table.gp's table_x) and name_font_size. */
int report_table_layout(FILE *variables, const char *name, const char *path, int first, int columns, double left,
                        double right, double max_pt, double min_pt, struct error *e);
/* Counts with thousands separators: 32,505,856. */
void report_format_count(char *out, size_t size, double value);
/* A size as the pages say it: "W = 4096" for a square, "8192 x 3072 x 1024" (M x N x K) otherwise. */
void report_format_size(char *out, size_t size, struct product_shape shape);

#endif
