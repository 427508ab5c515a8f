/*
 * Reading CSV back: a whole file in memory, columns found by name, every
 * error naming the file and the line (results folders are read by tools that
 * run long after the run, often on another machine).
 */
#ifndef MEMSCOPE_CSV_TABLE_H
#define MEMSCOPE_CSV_TABLE_H

#include "../common/paths.h"
#include "../common/error.h"

struct csv_table {
    char path[PATH_LEN];
    int columns;
    char **header;
    int rows;
    char ***cells; /* cells[row][column] */
    int *line;     /* the line of the file each row starts on (the header is line 1) */
};

/* Fails on a missing or empty file, an unterminated quote, a last line without
 * its newline (a truncated file) and a row whose field count differs from the header's. */
int csv_table_read(const char *path, struct csv_table *t, struct error *e);
void csv_table_free(struct csv_table *t);

/* The column's index, or an error that names the file and the column. */
int csv_table_column(const struct csv_table *t, const char *name, int *column, struct error *e);
/* Index of the column, or -1 (for columns an older run may not have). */
int csv_table_column_or_none(const struct csv_table *t, const char *name);

const char *csv_table_text(const struct csv_table *t, int row, int column);
/* An empty field gives NAN ("not collected"); anything else must be a number. */
int csv_table_real(const struct csv_table *t, int row, int column, double *value, struct error *e);
/* The field must be a whole number that fits an int. */
int csv_table_int(const struct csv_table *t, int row, int column, int *value, struct error *e);
/* The field must be present and a number. */
int csv_table_required_real(const struct csv_table *t, int row, int column, double *value, struct error *e);

#endif
