/* What memscope-compare shows: a table on a stream, and compare.csv and
 * compare-metrics.csv in an output folder (which the chart and the report read). */
#ifndef MEMSCOPE_COMPARE_OUTPUT_H
#define MEMSCOPE_COMPARE_OUTPUT_H

#include <stdio.h>

#include "compare.h"

void compare_print(FILE *out, const struct comparison *c, const struct compare_options *o);
int compare_write_csv(const char *dir, const struct comparison *c, struct error *e);

/* The verdict of a pair, counting the states that are not a timing verdict. */
const char *pair_verdict(const struct compared_pair *p);

#endif
