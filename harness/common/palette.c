#include "palette.h"

/* Tableau 10 with its light colours darkened (orange, pink, cyan, olive), then black and navy: each has a
 * contrast of at least 3:1 against white paper (WCAG's bound for graphics), so no line fades out in print. */
static const char *const colours[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#d95f02", "#8c564b",
    "#c2439a", "#0e8a96", "#000000", "#8a8a00", "#7f7f7f", "#393b79",
};
/* Filled square, circle, triangle, inverted triangle, diamond. Five markers and twelve colours: series i and j
 * look alike only when i - j is a multiple of both, 60. */
static const int markers[] = {5, 7, 9, 11, 13};

#define COUNT(a) ((int)(sizeof(a) / sizeof(a)[0]))

void palette_write_linetypes(FILE *f, int count)
{
    for (int i = 0; i < count; ++i)
        fprintf(f, "set linetype %d lc rgb \"%s\" lw 2 pt %d ps 1.2\n", i + 1, colours[i % COUNT(colours)],
                markers[i % COUNT(markers)]);
}

void palette_write_colours(FILE *f, const char *name, int count)
{
    fprintf(f, "%s = \"", name);
    for (int i = 0; i < count; ++i)
        fprintf(f, "%s%s", i ? " " : "", colours[i % COUNT(colours)]);
    fputs("\"\n", f);
}

int palette_colour_count(void)
{
    return COUNT(colours);
}
