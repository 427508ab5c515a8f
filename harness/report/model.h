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

#include "../program/kernels.h"
#include "../program/labels.h"
#include "../results/folder_reader.h"
#include "../results/schema.h"

#define MAX_WIDTHS 64

/* The variants in the order the run measured them (the registry's), and its widths ascending. A program's profile
 * (results_is_program) is read by kernel (program/kernels.h): its variants, the pages of hardware metrics' subject at
 * width 0, are the busiest profiled kernels (at most MAX_VARIANTS), each by the job whose metrics stand for it and
 * named by the kernel; its timing pages read every kernel. */
struct report_model {
    const struct results_folder *r;
    bool program;
    struct program_kernels kernels;  /* a program's, the busiest first */
    int kernel_of[MAX_VARIANTS];     /* a program's variant's kernel: its index in kernels */
    const char *variant[MAX_VARIANTS];
    const char *precision[MAX_VARIANTS];
    const char *label[MAX_VARIANTS]; /* as a page names it: the variant, or a job's program_job_label */
    char job_label[MAX_VARIANTS][JOB_LABEL_LEN];
    int variants;
    int width[MAX_WIDTHS]; /* the squares' widths (a program's jobs: 0): the pages by width draw these */
    int widths;
    int largest_width; /* the last of width[]: every page but the summaries shows this width, gnuplot's largest_width;
                          0 in a run of no square */
    struct product_shape shape[MAX_WIDTHS]; /* every size the run measured, squares and others, the least work first */
    int shapes;
    struct csv_table lines, stalls; /* lines.csv, stalls.csv: read when has_lines, has_stalls */
    int has_lines, has_stalls;
    const char *compare_path; /* a comparison's compare.csv to draw on a last page (--compare), or NULL */
};

/* On failure nothing is left to free. grouping: how a program's launches are grouped (a run ignores it). */
int report_model_build(const struct results_folder *r, enum kernel_grouping grouping, struct report_model *m,
                       struct error *e);
void report_model_free(struct report_model *m);
int report_variant_index(const struct report_model *m, const char *name);
/* A summary value; NAN when the row, the column (an older run) or the value is missing. The pages of squares name
 * the size by its width; the shapes page by its shape. */
double report_summary_value(const struct report_model *m, const char *variant, int width, enum summary_column id);
double report_value_at(const struct report_model *m, const char *variant, struct product_shape size,
                       enum summary_column id);
/* The same by the summary's row (-1: none); its text, "" where the row or the column is missing. */
double report_row_value(const struct report_model *m, int row, enum summary_column id);
const char *report_row_text(const struct report_model *m, int row, enum summary_column id);
/* A value of environment.csv; fallback where the key is absent or empty. */
const char *report_environment_or(const struct results_folder *r, const char *key, const char *fallback);
int report_passed(const struct report_model *m, const char *variant, int width);
int report_passed_at(const struct report_model *m, const char *variant, struct product_shape size);
/* The anchor of a precision: cuBLAS of it (reference 1) or its naive kernel (reference 0); "" for none. */
const char *report_anchor(const char *precision, int reference);
/* Median time of variant v's anchor at this size: cuBLAS of its precision (reference 1) or its naive kernel
 * (reference 0); NAN if that did not run or failed. */
double report_anchor_ms(const struct report_model *m, int v, struct product_shape size, int reference);

#endif
