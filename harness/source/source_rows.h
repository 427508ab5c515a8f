/* A source capture's rows of lines.csv and instructions.csv (results/lines_csv.h and instructions_csv.h write them).
 * The live run, a program's source run and memscope-decode write through here, so they agree. */
#ifndef MEMSCOPE_SOURCE_ROWS_H
#define MEMSCOPE_SOURCE_ROWS_H

#include "../csv/writer.h"
#include "../results/source_capture.h"

/* Every call's lines, each line metric that is not zero, with the line's text from the capture. */
int source_write_rows(struct csv *c, const struct source_capture *capture, struct error *e);
/* Every call's instructions, in the capture's order, with their line metrics (instructions.csv). */
int source_write_instruction_rows(struct csv *c, const struct source_capture *capture, struct error *e);

#endif
