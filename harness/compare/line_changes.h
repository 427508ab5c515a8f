/*
 * Per-line changes between two runs of the same source: every count of the
 * source group (lines.csv) that differs, by variant, shape, kernel, file, line
 * and metric. They are deterministic, so any difference is a change in the
 * code or the compiler. A kernel whose bank conflicts or wasted sectors grew
 * (summed over its lines, so that a line that only moved is no regression)
 * is a regression, named by the lines whose excess grew.
 */
#ifndef MEMSCOPE_COMPARE_LINE_CHANGES_H
#define MEMSCOPE_COMPARE_LINE_CHANGES_H

#include <stdio.h>

#include "../common/error.h"

struct line_changes {
    int compared; /* 0: a side has no lines.csv */
    int changed;
    int regressions; /* lines whose excess grew, in kernels whose excess grew */
};

/* Prints the changes to print (at most a dozen regressions and a dozen other changes); writes every change
 * to out_dir/compare-lines.csv when out_dir is not NULL. Nothing is compared when a side has no lines.csv. */
int compare_line_changes(const char *base_dir, const char *head_dir, FILE *print, const char *out_dir,
                         struct line_changes *result, struct error *e);

#endif
