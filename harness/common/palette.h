/* The colours and markers of the variants, shared by every chart so that a variant keeps its look. */
#ifndef MEMSCOPE_PALETTE_H
#define MEMSCOPE_PALETTE_H

#include <stdio.h>

/* Writes gnuplot's "set linetype" lines for count series: series i gets linetype i + 1, a colour and a marker;
 * no two of the first 60 series share both. */
void palette_write_linetypes(FILE *f, int count);
/* Writes name = "colour colour ...": the palette's first count colours, for charts whose series are not variants
 * (the stall reasons), so that every chart draws from one set of colours readable on white. */
void palette_write_colours(FILE *f, const char *name, int count);
/* How many colours the palette has: series that many apart share one. */
int palette_colour_count(void);

#endif
