/*
 * instructions.csv: the source group's counts per SASS instruction, as
 * memscope-decode --instructions writes them from a source capture, so that a
 * comparison can pair each instruction with another tool's by its offset.
 * source/source_rows.c builds the rows.
 */
#ifndef MEMSCOPE_INSTRUCTIONS_CSV_H
#define MEMSCOPE_INSTRUCTIONS_CSV_H

#include <stdint.h>

#include "../csv/writer.h"
#include "product_shape.h"

/* One instruction: where it lies, then its line metrics, in the schema's order (INSTRUCTIONS_INST_EXECUTED on). */
struct instruction_row {
    const char *variant, *precision;
    struct product_shape shape;
    const char *kernel;
    uint64_t offset;
    const char *file;
    int line;
    const char *opcode;
    const double *values;
};

int instructions_csv_create(struct csv *c, const char *dir, struct error *e);
void instructions_csv_on_stream(struct csv *c, FILE *stream, const char *name);
void instructions_csv_row(struct csv *c, const struct instruction_row *r);

#endif
