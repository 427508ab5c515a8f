/* stalls.csv: the stall sampling's samples per kernel, source line and reason (schema in results/schema.h). */
#ifndef MEMSCOPE_STALLS_CSV_H
#define MEMSCOPE_STALLS_CSV_H

#include "../csv/writer.h"
#include "stall_lines.h"

int stalls_csv_create(struct csv *c, const char *dir, struct error *e);
/* Every line of the call with samples, one row per reason sampled there; each line's text is read from its
 * file as it is now. */
void stalls_csv_rows(struct csv *c, const struct stall_call *call, const struct stall_reasons *reasons);

#endif
