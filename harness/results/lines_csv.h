/*
 * lines.csv: the source group's counts per source line (columns: schema.h). The live run and memscope-decode hand
 * their rows here (source/source_rows.c builds them from a source capture), so they agree.
 */
#ifndef MEMSCOPE_LINES_CSV_H
#define MEMSCOPE_LINES_CSV_H

#include "../csv/writer.h"
#include "product_shape.h"

/* One line metric of one source line of a kernel; file "" and line 0: a kernel built without line information. */
struct line_row {
    const char *variant, *precision;
    struct product_shape shape;
    const char *kernel, *file;
    int line;
    const char *source, *opcodes, *metric;
    double value;
};

int lines_csv_create(struct csv *c, const char *dir, struct error *e);
void lines_csv_on_stream(struct csv *c, FILE *stream, const char *name);
void lines_csv_row(struct csv *c, const struct line_row *r);

#endif
