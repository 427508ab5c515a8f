/*
 * The diagnosis page: each variant's limiter and its evidence at the largest width, by harness/diagnose/'s rules
 * applied to the figures the run recorded (so a run taken before a rule changed reads as the rules say now), with
 * the warps' top stall reason where the stalls group ran. No page for a run that diagnosed nothing (no metrics).
 */
#ifndef MEMSCOPE_REPORT_DIAGNOSIS_PAGE_H
#define MEMSCOPE_REPORT_DIAGNOSIS_PAGE_H

#include "model.h"

/* diagnosis.tsv; *rows is 0 (and nothing written) when no variant has a limiter. */
int report_write_diagnosis(const struct report_model *m, const char *dir, int *rows, struct error *e);

#endif
