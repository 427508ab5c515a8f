/*
 * The diagnosis page: each variant's limiter and its evidence at the largest width, as the run wrote them
 * into summary.csv (harness/diagnose/ decides them). No page for a run without them.
 */
#ifndef MEMSCOPE_REPORT_DIAGNOSIS_PAGE_H
#define MEMSCOPE_REPORT_DIAGNOSIS_PAGE_H

#include "model.h"

/* diagnosis.tsv; *rows is 0 (and nothing written) when no variant has a limiter. */
int report_write_diagnosis(const struct report_model *m, const char *dir, int *rows, struct error *e);

#endif
