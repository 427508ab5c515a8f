/*
 * Per-line changes between two runs of the same source: every count of the
 * source group (lines.csv) that differs, by variant, width, kernel, file, line
 * and metric. They are deterministic, so any difference is a change in the
 * code or the compiler; a line whose bank conflicts or wasted sectors grew is
 * a regression, and one that had none before is named as a new one.
 */
#ifndef MEMSCOPE_COMPARE_LINE_CHANGES_H
#define MEMSCOPE_COMPARE_LINE_CHANGES_H

#include <stdio.h>

#include "../common/error.h"

struct line_changes {
    int compared; /* 0: a side has no lines.csv */
    int changed;
    int regressions; /* excess wavefronts or sectors that grew */
};

/* Prints the changes to print (at most a dozen regressions and a dozen other changes); writes every change
 * to out_dir/compare-lines.csv when out_dir is not NULL. Nothing is compared when a side has no lines.csv. */
int compare_line_changes(const char *base_dir, const char *head_dir, FILE *print, const char *out_dir,
                         struct line_changes *result, struct error *e);

#endif
