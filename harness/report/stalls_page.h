/*
 * The stall pages: from stalls.csv (the stalls group's PC samples), at the largest width, each variant's
 * share of samples per stall reason (stalls.tsv: each variant's largest reasons, the reason each step of the FP32
 * ladder moved most, and the run's most common, the rest as "other", kept under each variant's largest named share
 * while the names allow) and
 * its most stalled source line with that line's main reason (stall-lines.tsv). No pages for a run without
 * stalls.csv, or without samples at the largest width.
 */
#ifndef MEMSCOPE_REPORT_STALLS_PAGE_H
#define MEMSCOPE_REPORT_STALLS_PAGE_H

#include "model.h"

/* The most reasons charted by name, each in its own colour of the palette; the others are summed as "other". */
#define REPORT_STALL_REASONS_SHOWN 11

/* Sets m->stall_rows (variants with samples; 0: nothing written) and m->stall_columns. */
int report_write_stalls(struct report_model *m, const char *dir, struct error *e);

#endif
