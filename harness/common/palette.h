/* The colours and markers of the variants, shared by every chart so that a variant keeps its look. */
#ifndef MEMSCOPE_PALETTE_H
#define MEMSCOPE_PALETTE_H

#include <stdio.h>

/* Writes gnuplot's "set linetype" lines for count series: series i gets linetype i + 1, a colour and a marker;
 * no two of the first 60 series share both. */
void palette_write_linetypes(FILE *f, int count);

#endif
