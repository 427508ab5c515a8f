/*
 * From instructions to source lines: the counts of every instruction that a
 * line compiled to, summed per function and line, with the distinct SASS
 * opcodes in PC order; and a function's totals, whose excess figures are the
 * sums of each instruction's own excess (exact, unlike wavefronts minus an
 * ideal taken from kernel-wide totals).
 */
#ifndef MEMSCOPE_SOURCE_LINES_H
#define MEMSCOPE_SOURCE_LINES_H

#include <stddef.h>

#include "../diagnose/findings.h"
#include "source_metrics.h"

#define SOURCE_OPCODES_LEN 128

struct source_line {
    const char *function, *file; /* point into the call */
    int line;
    char opcodes[SOURCE_OPCODES_LEN];
    double values[LINE_METRIC_COUNT];
};

/* The call's lines, in order of each function's first instruction then of the line's first; *lines is malloc'd. */
int source_lines(const struct source_call *call, struct source_line **lines, size_t *n, struct error *e);
/* The lines of function (mangled; NULL: every function) into w, for the findings to name the line with the most
 * excess of each kind (diagnose/findings.h). */
int source_finding_lines(const struct source_call *call, const char *function, struct finding_lines *w,
                         struct error *e);
/* Sums over the call's instructions of function (mangled), or of every function when function is NULL. */
void source_function_totals(const struct source_call *call, const char *function, double totals[LINE_METRIC_COUNT]);

#endif
