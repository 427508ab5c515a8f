/* validate.csv: one row per ground-truth check of memscope --validate (columns: schema.h); validate/ makes the
 * checks and hands their rows here. */
#ifndef MEMSCOPE_VALIDATE_CSV_H
#define MEMSCOPE_VALIDATE_CSV_H

#include <stdbool.h>

#include "../csv/writer.h"

/* A measured value against its expected one and the bounds it must lie within; expected NAN: no figure (an empty
 * field). */
struct validate_row {
    const char *kernel, *parameter, *metric;
    double expected, lower, upper, measured;
    bool pass;
};

int validate_csv_create(struct csv *c, const char *dir, struct error *e);
void validate_csv_row(struct csv *c, const struct validate_row *r);

#endif
