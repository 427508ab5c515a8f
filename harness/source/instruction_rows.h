/* A source capture's rows of instructions.csv (results/instructions_csv.h writes them): every call's
 * instructions, in the capture's order, with their line metrics. memscope-decode --instructions writes through
 * here. */
#ifndef MEMSCOPE_INSTRUCTION_ROWS_H
#define MEMSCOPE_INSTRUCTION_ROWS_H

#include "../csv/writer.h"
#include "../results/source_capture.h"

int source_write_instruction_rows(struct csv *c, const struct source_capture *capture, struct error *e);

#endif
