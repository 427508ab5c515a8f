/*
 * A kernel's lines as its findings name them (diagnose/findings.h: the line with the most excess of each kind),
 * from the source group's rows of lines.csv: the suite's variant at a size, or a program's job (PRODUCT_SHAPE_NONE).
 * The report and memscope-profile's findings.csv read them alike.
 */
#ifndef MEMSCOPE_PROGRAM_LINE_FINDINGS_H
#define MEMSCOPE_PROGRAM_LINE_FINDINGS_H

#include "../csv/reader.h"
#include "../diagnose/findings.h"
#include "../results/product_shape.h"

/* t: lines.csv, or NULL where the folder has none (out then has no line). *wavefronts: the shared wavefronts the
 * variant's lines hold, NAN where lines.csv does not place the variant. */
int finding_lines_read(const struct csv_table *t, const char *variant, struct product_shape shape,
                       struct finding_lines *out, double *wavefronts, struct error *e);

#endif
