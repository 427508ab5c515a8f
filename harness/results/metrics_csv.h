/*
 * metrics.csv: one row per variant, size, kernel and metric, the collected
 * metrics first (CUPTI's names and units), then the derived ones. The live run
 * and offline decoding write it through the same functions, so they agree.
 */
#ifndef MEMSCOPE_METRICS_CSV_H
#define MEMSCOPE_METRICS_CSV_H

#include "../csv/writer.h"
#include "../profile/profile.h"

int metrics_csv_create(struct csv *c, const char *dir, struct error *e);
void metrics_csv_on_stream(struct csv *c, FILE *stream, const char *name);
void metrics_csv_rows(struct csv *c, const char *variant, const char *precision, int width, const struct profile *p);

#endif
