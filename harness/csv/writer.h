/* Writing CSV: RFC 4180 quoting, one header row, fields appended left to right. */
#ifndef MEMSCOPE_CSV_H
#define MEMSCOPE_CSV_H

#include <stdio.h>

#include "../common/paths.h"
#include "../common/error.h"

struct csv {
    FILE *file;
    char path[PATH_LEN];
    int fields_in_row;
};

/* header is the literal header line without newline, e.g. "variant,width". */
int csv_create(struct csv *c, const char *dir, const char *name, const char *header, struct error *e);
/* Writes to an open stream (standard output, or a file opened to append to: header
 * NULL writes none); csv_close then closes it. */
void csv_on_stream(struct csv *c, FILE *stream, const char *name, const char *header);
void csv_text(struct csv *c, const char *value);
void csv_int(struct csv *c, long long value);
void csv_uint(struct csv *c, unsigned long long value);
void csv_real(struct csv *c, double value); /* non-finite values are written as an empty field */
void csv_empty(struct csv *c);
void csv_end_row(struct csv *c);
/* Flushes and closes; reports a write error (disk full, ...) that happened at any point. */
int csv_close(struct csv *c, struct error *e);

#endif
