/*
 * instructions.csv: the source group's counts per SASS instruction, as
 * memscope-decode --instructions writes them from a source capture, so that a
 * comparison can pair each instruction with another tool's by its offset.
 */
#ifndef MEMSCOPE_INSTRUCTIONS_CSV_H
#define MEMSCOPE_INSTRUCTIONS_CSV_H

#include "../csv/writer.h"
#include "../source/source_capture.h"

void instructions_csv_on_stream(struct csv *c, FILE *stream, const char *name);
/* Every call of the capture, instruction by instruction, in the capture's order. */
int instructions_csv_rows(struct csv *c, const struct source_capture *capture, struct error *e);

#endif
