/*
 * lines.csv: the source group's counts per source line. The live run and
 * memscope-decode write it from the same source captures through these
 * functions, so they agree.
 */
#ifndef MEMSCOPE_LINES_CSV_H
#define MEMSCOPE_LINES_CSV_H

#include "../csv/writer.h"
#include "../source/source_capture.h"

int lines_csv_create(struct csv *c, const char *dir, struct error *e);
void lines_csv_on_stream(struct csv *c, FILE *stream, const char *name);
/* Every call of the capture, line by line. */
int lines_csv_rows(struct csv *c, const struct source_capture *capture, struct error *e);

#endif
