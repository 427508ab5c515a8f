/* stalls.csv: the stall sampling's samples per kernel, source line and reason (columns: schema.h); the stalls group
 * builds the rows (stalls/stall_rows.c) and hands them here. */
#ifndef MEMSCOPE_STALLS_CSV_H
#define MEMSCOPE_STALLS_CSV_H

#include <stdint.h>

#include "../csv/writer.h"
#include "product_shape.h"

/* The warp samples of one reason on one source line of a kernel; file "" and line 0: a kernel built without line
 * information. */
struct stall_row {
    const char *variant, *precision;
    struct product_shape shape;
    const char *kernel, *file;
    int line;
    const char *source, *reason;
    uint64_t samples;
};

int stalls_csv_create(struct csv *c, const char *dir, struct error *e);
void stalls_csv_row(struct csv *c, const struct stall_row *r);

#endif
