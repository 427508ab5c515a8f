/*
 * The report's view of a results folder: the variants in the order the run
 * measured them (the registry's), its widths ascending, the summary's
 * values by schema column, and the source and stalls groups' tables
 * (lines.csv, stalls.csv) where the run has them, read once through
 * harness/results/; and the comparison the report is asked to draw. Every
 * table and chart of the report reads it.
 */
#ifndef MEMSCOPE_REPORT_MODEL_H
#define MEMSCOPE_REPORT_MODEL_H

#include <stdbool.h>

#include "../results/folder_reader.h"
#include "../results/schema.h"
#include "job_label.h"

#define MAX_WIDTHS 64

/* The variants in the order the run measured them (the registry's), and its widths ascending. A program's profile
 * (results_is_program) has its profiled jobs as variants, the pages of hardware metrics' subject, at width 0; its
 * timing pages read every job from the summary. */
struct report_model {
    const struct results_folder *r;
    bool program;
    const char *variant[MAX_VARIANTS];
    const char *precision[MAX_VARIANTS];
    const char *label[MAX_VARIANTS]; /* as a page names it: the variant, or a job's report_job_label */
    char job_label[MAX_VARIANTS][REPORT_JOB_LABEL_LEN];
    int variants;
    int width[MAX_WIDTHS];
    int widths;
    int largest_width; /* the last of width[]: every page but the summaries shows this width, gnuplot's largest_width */
    struct csv_table lines, stalls; /* lines.csv, stalls.csv: read when has_lines, has_stalls */
    int has_lines, has_stalls;
    const char *compare_path; /* a comparison's compare.csv to draw on a last page (--compare), or NULL */
};

/* On failure nothing is left to free. */
int report_model_build(const struct results_folder *r, struct report_model *m, struct error *e);
void report_model_free(struct report_model *m);
int report_variant_index(const struct report_model *m, const char *name);
/* A summary value; NAN when the row, the column (an older run) or the value is missing. */
double report_summary_value(const struct report_model *m, const char *variant, int width, enum summary_column id);
/* A value of environment.csv; fallback where the key is absent or empty. */
const char *report_environment_or(const struct results_folder *r, const char *key, const char *fallback);
int report_passed(const struct report_model *m, const char *variant, int width);
/* Median time of variant v's anchor at this width: cuBLAS of its precision (reference 1) or its naive kernel
 * (reference 0); NAN if that did not run or failed. */
double report_anchor_ms(const struct report_model *m, int v, int width, int reference);

#endif
