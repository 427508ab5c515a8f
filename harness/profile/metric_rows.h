/* A profiled call's rows of metrics.csv (results/metrics_csv.h writes them): per kernel, every collected metric,
 * then the metrics derived from them. The live run, --validate and memscope-decode all write through here. */
#ifndef MEMSCOPE_METRIC_ROWS_H
#define MEMSCOPE_METRIC_ROWS_H

#include "../csv/writer.h"
#include "../results/product_shape.h"
#include "profile.h"

/* Kernel k's rows, under the name given (a program profile's demangled kernel, whole). */
void profile_write_kernel_rows(struct csv *c, const char *variant, const char *precision, struct product_shape shape,
                               const char *kernel, const struct profile *p, int k);
void profile_write_rows(struct csv *c, const char *variant, const char *precision, struct product_shape shape,
                        const struct profile *p);

#endif
