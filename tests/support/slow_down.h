/* Planting a regression in a copy of a fixture results folder: one variant x width's samples take longer. */
#ifndef MEMSCOPE_SLOW_DOWN_H
#define MEMSCOPE_SLOW_DOWN_H

#include <stdlib.h>
#include <string.h>

#include "rewrite_csv.h"

/* rewrite_csv's edit takes no argument of its own: the change is passed through these. */
static const char *slow_variant, *slow_width;
static double slow_factor;

static void slow_down_row(const struct csv_table *t, int row, char **fields)
{
    (void)row;
    if (strcmp(fields[csv_table_column_or_none(t, "variant")], slow_variant) ||
        strcmp(fields[csv_table_column_or_none(t, "width")], slow_width))
        return;
    char *time = fields[csv_table_column_or_none(t, "time_ms")];
    snprintf(time, 256, "%.10g", atof(time) * slow_factor);
}

/* Every sample of variant at width in dir/samples.csv times factor. */
static inline void slow_down(const char *dir, const char *variant, const char *width, double factor)
{
    slow_variant = variant;
    slow_width = width;
    slow_factor = factor;
    rewrite_csv(dir, "samples.csv", slow_down_row);
}

#endif
