/* A source capture's rows of lines.csv (results/lines_csv.h writes them): every call's lines, each line metric
 * that is not zero, with the line's text from the capture. The live run and memscope-decode --lines write through
 * here. */
#ifndef MEMSCOPE_LINE_ROWS_H
#define MEMSCOPE_LINE_ROWS_H

#include "../csv/writer.h"
#include "../results/source_capture.h"

int source_write_rows(struct csv *c, const struct source_capture *capture, struct error *e);

#endif
