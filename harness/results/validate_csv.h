/* validate.csv: one row per ground-truth check of memscope --validate (columns: schema.h); validate/ makes the
 * checks and hands their rows here. */
#ifndef MEMSCOPE_VALIDATE_CSV_H
#define MEMSCOPE_VALIDATE_CSV_H

#include <stdbool.h>

#include "../csv/writer.h"

/* A measured value against its expected one and the bounds it must lie within; expected NAN: no figure (an empty
 * field). A case of the diagnosis corpus has its causes instead: the planted one and the first finding's, that
 * finding's estimated gain, and the gain measured against its fixed sibling (NAN: none); a metric's check has them
 * "" and NAN. */
struct validate_row {
    const char *kernel, *parameter, *metric;
    double expected, lower, upper, measured;
    bool pass;
    const char *expected_cause, *found_cause;
    double estimated_gain_pct, measured_gain_pct;
};

int validate_csv_create(struct csv *c, const char *dir, struct error *e);
void validate_csv_row(struct csv *c, const struct validate_row *r);

#endif
