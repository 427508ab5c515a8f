/* A sampled call's rows of stalls.csv (results/stalls_csv.h writes them). */
#ifndef MEMSCOPE_STALL_ROWS_H
#define MEMSCOPE_STALL_ROWS_H

#include "../csv/writer.h"
#include "stall_lines.h"

/* Every line of the call with samples, one row per reason sampled there; each line's text is read from its
 * file as it is now. */
void stalls_write_rows(struct csv *c, const struct stall_call *call, const struct stall_reasons *reasons);

#endif
