/*
 * The hot-lines pages: for each variant at the run's largest width, from lines.csv
 * (the source group's counts per source line), the line with the most bank
 * conflicts, the line with the most global sectors beyond the ideal, and the
 * line that executed the most instructions, each with its text and what it
 * cost, so that the report points at the code.
 */
#ifndef MEMSCOPE_REPORT_HOT_LINES_H
#define MEMSCOPE_REPORT_HOT_LINES_H

#include "model.h"

#define REPORT_HOT_LINES_PER_PAGE 28

/* hot-lines-<page>.tsv from the results folder's lines.csv; *pages is 0 when the run has no lines.csv, or none at
 * the largest width (a page at another width would not say what every other page says). */
int report_write_hot_lines(const struct report_model *m, const char *dir, int *pages, struct error *e);

#endif
