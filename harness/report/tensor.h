/*
 * A kernel's tensor-core work as its run recorded it, for every page that shows it (roofline, key, diagnosis,
 * summary, a program's kernels): metrics.csv's tensor operations by source type (flop_tensor_<type>, which count
 * 2 per multiply-add, like every FLOP of the report) and environment.csv's measured tensor roofs
 * (ceiling_tensor_<type>_gflops). A run from before memscope counted tensor operations has neither: no type.
 */
#ifndef MEMSCOPE_REPORT_TENSOR_H
#define MEMSCOPE_REPORT_TENSOR_H

#include <stdbool.h>

#include "../profile/metric_catalog.h"
#include "model.h"

/* The catalog's source types (TENSOR_TYPES), in its order: a type is its index. */
#define REPORT_TENSOR_COUNT_ONE(id, name) +1
enum { REPORT_TENSOR_TYPE_COUNT = 0 TENSOR_TYPES(REPORT_TENSOR_COUNT_ONE) };
#undef REPORT_TENSOR_COUNT_ONE

const char *report_tensor_type_name(int type);

/* One variant (or job) at one width: type, the type of most of its tensor operations (-1: it ran none, or the run
 * did not count them); flop, that type's operations over the call's kernels; gflops, flop over the median time
 * (the roofline's and the summary's time); roof_gflops, the run's measured roof of the type (NAN: none); roof_pct,
 * gflops over it (NAN without a roof); counted, whether the run counted tensor operations at all (false: a run
 * from before memscope did, or without the tensor group). */
struct tensor_work {
    int type;
    double flop, gflops, roof_gflops, roof_pct;
    bool counted;
};

int report_tensor_work(const struct report_model *m, const char *variant, int width, struct tensor_work *t,
                       struct error *e);

/* The run's measured roof of a type, in GFLOP/s; NAN where it has none. */
int report_tensor_roof(const struct results_folder *r, int type, double *gflops, struct error *e);

/* "bf16 612 TFLOP/s" (3 significant digits under 100), or "-" for a kernel that ran no tensor operation. */
void report_format_tensor(char *cell, size_t size, const struct tensor_work *t);

#endif
