/*
 * metrics.csv: one row per variant, size, kernel and metric, the collected metrics first (CUPTI's names and
 * units), then the derived ones. The live run, --validate and memscope-decode hand their rows here
 * (profile/metric_rows.c builds them from a profiled call), so they agree.
 */
#ifndef MEMSCOPE_METRICS_CSV_H
#define MEMSCOPE_METRICS_CSV_H

#include "../csv/writer.h"
#include "product_shape.h"

struct metric_row {
    const char *variant, *precision;
    struct product_shape shape;
    const char *kernel, *metric;
    double value; /* NAN: not measured (an empty field) */
    const char *unit;
};

int metrics_csv_create(struct csv *c, const char *dir, struct error *e);
void metrics_csv_on_stream(struct csv *c, FILE *stream, const char *name);
void metrics_csv_row(struct csv *c, const struct metric_row *r);

#endif
