#include "palette.h"

/* Distinct on paper and on screen. */
static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
    "#000000", "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#ad494a", "#5254a3", "#e7969c",
};

void palette_write_linetypes(FILE *f, int count)
{
    int colours = (int)(sizeof palette / sizeof palette[0]);
    for (int i = 0; i < count; ++i)
        fprintf(f, "set linetype %d lc rgb \"%s\" lw 2 pt %d ps 1.2\n", i + 1, palette[i % colours], 5 + 2 * (i % 4));
}
