#include <math.h>
#include <string.h>

#include "../results/job_name.h"
#include "../results/schema.h"
#include "model.h"

/* Speedups are over the naive kernel of the same precision; "% of cuBLAS" is against cuBLAS in it. */
static const struct {
    const char *precision, *baseline, *reference;
} precision_anchors[] = {
    {"fp32", "naive", "cublas"},
    {"fp64", "naive_fp64", "cublas_fp64"},
    /* The tensor types have cuBLAS alone: no baseline of their own. */
    {"bf16", "", "cublas_bf16"},
    {"fp16", "", "cublas_fp16"},
    {"tf32", "", "cublas_tf32"},
};

/* Each size once, in product_shape_compare's order. */
static int add_shape(struct report_model *m, struct product_shape size, struct error *e)
{
    if (product_shapes_insert(m->shape, &m->shapes, MAX_WIDTHS, size))
        return error_set(e, EXIT_USAGE, "%s: more than %d sizes", m->r->summary.path, MAX_WIDTHS);
    return 0;
}

int report_variant_index(const struct report_model *m, const char *name)
{
    for (int i = 0; i < m->variants; ++i)
        if (strcmp(m->variant[i], name) == 0)
            return i;
    return -1;
}

/* The summary columns the report reads: each must hold a number or nothing, in every row. */
static const enum summary_column numeric_columns[] = {
    SUMMARY_MEDIAN_MS,           SUMMARY_GFLOPS,
    SUMMARY_FLOP,                SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT,
    SUMMARY_SHARED_CONFLICTS_HW, SUMMARY_SHARED_CONFLICTS_EXACT,
    SUMMARY_DRAM_GBS,            SUMMARY_DRAM_PCT_OF_PEAK,
    SUMMARY_REGISTERS_PER_THREAD, SUMMARY_THEORETICAL_OCCUPANCY_PCT,
    SUMMARY_ACHIEVED_OCCUPANCY_PCT,
};

static int check_numbers(const struct csv_table *t, struct error *e)
{
    for (size_t c = 0; c < sizeof numeric_columns / sizeof numeric_columns[0]; ++c) {
        int col = schema_column_or_none(t, &summary_csv, numeric_columns[c]);
        for (int row = 0; col >= 0 && row < t->rows; ++row) {
            double value;
            if (csv_table_real(t, row, col, &value, e))
                return e->code;
        }
    }
    return 0;
}

/* A program's variants: the busiest kernels that have a job with hardware metrics or stall samples, by that job. */
static void add_program_variants(struct report_model *m)
{
    const struct results_folder *r = m->r;
    for (size_t i = 0; i < m->kernels.with_launches && m->variants < MAX_VARIANTS; ++i) {
        const struct program_kernel *k = &m->kernels.at[i];
        if (k->profiled_row < 0)
            continue;
        int v = m->variants++;
        m->variant[v] = csv_table_text(&r->summary, k->profiled_row, r->col_variant);
        m->precision[v] = csv_table_text(&r->summary, k->profiled_row, r->col_precision);
        m->kernel_of[v] = (int)i;
        program_kernel_name(&m->kernels, k, KERNEL_LABEL_MAX, m->job_label[v], sizeof m->job_label[v]);
        m->label[v] = m->job_label[v];
    }
}

static int add_variants_and_widths(struct report_model *m, struct error *e)
{
    const struct results_folder *r = m->r;
    if (m->program)
        add_program_variants(m);
    for (int row = 0; row < r->summary.rows && !e->code; ++row) {
        const char *name = csv_table_text(&r->summary, row, r->col_variant);
        if (!m->program && report_variant_index(m, name) < 0) {
            if (m->variants == MAX_VARIANTS)
                return error_set(e, EXIT_USAGE, "%s: more than %d variants", r->summary.path, MAX_VARIANTS);
            m->precision[m->variants] = csv_table_text(&r->summary, row, r->col_precision);
            m->label[m->variants] = name;
            m->variant[m->variants++] = name;
        }
        add_shape(m, r->summary_shape[row], e);
    }
    for (int s = 0; s < m->shapes; ++s) /* the squares, ascending as the shapes are (a program's jobs: width 0) */
        if (product_shape_equal(m->shape[s], product_shape_square(product_shape_width(m->shape[s]))))
            m->width[m->widths++] = product_shape_width(m->shape[s]);
    m->largest_width = m->widths ? m->width[m->widths - 1] : 0;
    return e->code;
}

/* A file of the folder the run may not have written; not kept when it cannot be read (the reader freed it). */
static int read_optional(const struct report_model *m, const struct csv_schema *s, struct csv_table *t, int *present,
                         struct error *e)
{
    if (results_read_optional(m->r->dir, s, t, present, e))
        *present = 0;
    return e->code;
}

int report_model_build(const struct results_folder *r, enum kernel_grouping grouping, struct report_model *m,
                       struct error *e)
{
    memset(m, 0, sizeof *m);
    m->r = r;
    m->program = results_is_program(r);
    if (check_numbers(&r->summary, e) || (m->program && program_kernels_build(r, grouping, &m->kernels, e)))
        return e->code;
    if (add_variants_and_widths(m, e) ||
        read_optional(m, &lines_csv, &m->lines, &m->has_lines, e) ||
        read_optional(m, &stalls_csv, &m->stalls, &m->has_stalls, e))
        report_model_free(m);
    return e->code;
}

void report_model_free(struct report_model *m)
{
    program_kernels_free(&m->kernels);
    if (m->has_lines)
        csv_table_free(&m->lines);
    if (m->has_stalls)
        csv_table_free(&m->stalls);
    m->has_lines = m->has_stalls = 0;
}

/* A summary value; NAN when the row, the column (an older run) or the value is missing. The column was
 * checked when the model was built (numeric_columns), so it holds a number or nothing. */
double report_row_value(const struct report_model *m, int row, enum summary_column id)
{
    int col = schema_column_or_none(&m->r->summary, &summary_csv, id);
    struct error ignored = {0};
    double value = NAN;
    if (row >= 0 && col >= 0)
        csv_table_real(&m->r->summary, row, col, &value, &ignored);
    return value;
}

double report_value_at(const struct report_model *m, const char *variant, struct product_shape size,
                       enum summary_column id)
{
    return report_row_value(m, results_summary_row(m->r, variant, size), id);
}

double report_summary_value(const struct report_model *m, const char *variant, int width, enum summary_column id)
{
    return report_value_at(m, variant, product_shape_square(width), id);
}

const char *report_row_text(const struct report_model *m, int row, enum summary_column id)
{
    int col = schema_column_or_none(&m->r->summary, &summary_csv, id);
    return row < 0 || col < 0 ? "" : csv_table_text(&m->r->summary, row, col);
}

const char *report_environment_or(const struct results_folder *r, const char *key, const char *fallback)
{
    const char *value = results_environment(r, key);
    return value && *value ? value : fallback;
}

int report_passed_at(const struct report_model *m, const char *variant, struct product_shape size)
{
    int row = results_summary_row(m->r, variant, size);
    return row >= 0 && results_row_ok(m->r, row);
}

int report_passed(const struct report_model *m, const char *variant, int width)
{
    return report_passed_at(m, variant, product_shape_square(width));
}

const char *report_anchor(const char *precision, int reference)
{
    for (size_t i = 0; i < sizeof precision_anchors / sizeof precision_anchors[0]; ++i)
        if (strcmp(precision_anchors[i].precision, precision) == 0)
            return reference ? precision_anchors[i].reference : precision_anchors[i].baseline;
    return "";
}

/* Median time of the anchor variant of this precision at this size (NAN if it did not run or failed). */
double report_anchor_ms(const struct report_model *m, int v, struct product_shape size, int reference)
{
    const char *name = report_anchor(m->precision[v], reference);
    return report_passed_at(m, name, size) ? report_value_at(m, name, size, SUMMARY_MEDIAN_MS) : NAN;
}
