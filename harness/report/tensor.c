#include <math.h>
#include <stdio.h>

#include "../ceilings/rates.h"
#include "cells.h"
#include "tensor.h"

/* Each type's name and FLOP metric, from the catalog; its roof from the ceilings' table (none for int8 and fp64). */
static const struct {
    const char *name;
    enum derived_metric_id flop;
} types[] = {
#define REPORT_TENSOR_ROW(id, name) {name, METRIC_FLOP_TENSOR_##id},
    TENSOR_TYPES(REPORT_TENSOR_ROW)
#undef REPORT_TENSOR_ROW
};

const char *report_tensor_type_name(int type)
{
    return types[type].name;
}

int report_tensor_roof(const struct results_folder *r, int type, double *gflops, struct error *e)
{
    int ceiling = ceiling_for_tensor_type(types[type].name);
    *gflops = NAN;
    if (ceiling < 0 || results_environment_number(r, ceiling_key((enum ceiling)ceiling), gflops, e))
        return e->code;
    if (!(*gflops > 0)) /* a roof that reads 0 was not measured */
        *gflops = NAN;
    return 0;
}

int report_tensor_work(const struct report_model *m, const char *variant, int width, struct tensor_work *t,
                       struct error *e)
{
    *t = (struct tensor_work){-1, NAN, NAN, NAN, NAN, false};
    for (int i = 0; i < REPORT_TENSOR_TYPE_COUNT; ++i) {
        double flop;
        if (results_metric_sum(m->r, variant, product_shape_square(width), derived_metric_name(types[i].flop), &flop,
                               e))
            return e->code;
        t->counted |= !isnan(flop);
        if (flop > 0 && (t->type < 0 || flop > t->flop))
            t->type = i, t->flop = flop;
    }
    if (t->type < 0)
        return 0;
    t->gflops = t->flop / (report_summary_value(m, variant, width, SUMMARY_MEDIAN_MS) * 1e-3) / 1e9;
    if (report_tensor_roof(m->r, t->type, &t->roof_gflops, e))
        return e->code;
    t->roof_pct = 100.0 * t->gflops / t->roof_gflops;
    return 0;
}

void report_format_tensor(char *cell, size_t size, const struct tensor_work *t)
{
    double tflops = t->gflops / 1000.0;
    if (t->type < 0)
        snprintf(cell, size, "-");
    else if (isnan(tflops))
        snprintf(cell, size, "%s, not timed", types[t->type].name);
    else
        snprintf(cell, size, tflops < 100 ? "%s %.3g TFLOP/s" : "%s %.0f TFLOP/s", types[t->type].name, tflops);
}
