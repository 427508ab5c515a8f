/*
 * The tensor ladder's two lessons beyond its steps: the swizzle lesson (bank conflicts of ldmatrix, unpadded,
 * padded and swizzled: the run's rungs beside the ground truth's closed form) and the shapes page (the top rung
 * against cuBLAS bf16 at every size the run measured).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/paths.h"
#include "../profile/metric_catalog.h"
#include "cells.h"
#include "ladder.h"
#include "pages.h"

/* ---- The swizzle lesson ---- */

/* The ground truth's ldmatrix kernel (kernels/truth/truth_ldmatrix.cu), one validate.csv row per layout and metric;
 * its expected values are truth_model.c's closed form from the addresses. */
#define TRUTH_LDMATRIX "ldmatrix_x4"

#define SWIZZLE_CELLS 9
static const char *const swizzle_header =
    "0\tcase\tLDSM\twavefronts\twavefr./LDSM\tclosed form\tcheck\texcess wavefr.\tshared KiB\tmedian ms\tTFLOP/s\n";

static void put_row(FILE *f, int linetype, const char *name, char cell[SWIZZLE_CELLS][48])
{
    fprintf(f, "%d\t", linetype);
    report_put_cell(f, name, 0);
    for (int i = 0; i < SWIZZLE_CELLS; ++i)
        report_put_cell(f, cell[i], i == SWIZZLE_CELLS - 1);
}

/* A variant that ran ldmatrix at the largest width (the ladder's rungs from ldmatrix to cp_async): its counts, its
 * exact conflicts and what they cost in time. Returns whether it ran any. */
static int rung_row(FILE *f, const struct report_model *m, int v, struct error *e)
{
    const char *name = m->variant[v];
    int width = m->largest_width;
    const struct product_shape size = product_shape_square(width);
    double ldsm, wavefronts;
    char cell[SWIZZLE_CELLS][48];
    if (!report_passed(m, name, width) ||
        results_metric_sum(m->r, name, size, COLLECTED(LDSM_INSTRUCTIONS), &ldsm, e) ||
        results_metric_sum(m->r, name, size, COLLECTED(LDSM_WAVEFRONTS), &wavefronts, e) || !(ldsm > 0))
        return 0;
    report_format_count(cell[0], sizeof cell[0], ldsm);
    report_format_count(cell[1], sizeof cell[1], wavefronts);
    report_format_number(cell[2], sizeof cell[2], wavefronts / ldsm, "%.2f");
    snprintf(cell[3], sizeof cell[3], "-");
    snprintf(cell[4], sizeof cell[4], "-");
    report_format_count(cell[5], sizeof cell[5], report_summary_value(m, name, width, SUMMARY_SHARED_CONFLICTS_EXACT));
    report_format_number(cell[6], sizeof cell[6],
                         (report_summary_value(m, name, width, SUMMARY_STATIC_SMEM_BYTES) +
                          report_summary_value(m, name, width, SUMMARY_DYNAMIC_SMEM_BYTES)) / 1024,
                         "%.1f");
    report_format_significant(cell[7], sizeof cell[7], report_summary_value(m, name, width, SUMMARY_MEDIAN_MS), 4);
    report_format_number(cell[8], sizeof cell[8], report_summary_value(m, name, width, SUMMARY_GFLOPS) / 1000, "%.1f");
    put_row(f, v + 1, name, cell);
    return 1;
}

/* One layout of the ground truth: the measured counts of its rows, and the closed form's wavefronts an instruction
 * beside the check's verdict on all of its rows. */
struct truth_layout {
    char parameter[48];
    double ldsm, wavefronts, per_ldsm, closed_form, excess;
    int rows, passed;
};

static int validate_column(const struct csv_table *t, enum validate_column id, int *column)
{
    *column = schema_column_or_none(t, &validate_csv, id);
    return *column >= 0;
}

/* The ground truth's layouts in the order of validate.csv; returns how many (at most max). */
static int truth_layouts(const struct results_folder *r, struct truth_layout *layout, int max, struct error *e)
{
    const struct csv_table *t = &r->validate;
    int kernel, parameter, metric, expected, measured, status, n = 0;
    if (!r->has_validate || !validate_column(t, VALIDATE_KERNEL, &kernel) ||
        !validate_column(t, VALIDATE_PARAMETER, &parameter) || !validate_column(t, VALIDATE_METRIC, &metric) ||
        !validate_column(t, VALIDATE_EXPECTED, &expected) || !validate_column(t, VALIDATE_MEASURED, &measured) ||
        !validate_column(t, VALIDATE_STATUS, &status))
        return 0;
    for (int row = 0; row < t->rows && !e->code; ++row) {
        if (strcmp(csv_table_text(t, row, kernel), TRUTH_LDMATRIX) != 0)
            continue;
        int at = 0;
        while (at < n && strcmp(layout[at].parameter, csv_table_text(t, row, parameter)) != 0)
            ++at;
        if (at == n) {
            if (n == max)
                continue;
            layout[n] = (struct truth_layout){.ldsm = NAN, .wavefronts = NAN, .per_ldsm = NAN, .closed_form = NAN,
                                              .excess = NAN};
            snprintf(layout[n++].parameter, sizeof layout->parameter, "%s", csv_table_text(t, row, parameter));
        }
        struct truth_layout *l = &layout[at];
        const char *name = csv_table_text(t, row, metric);
        double want, got;
        if (csv_table_real(t, row, expected, &want, e) || csv_table_real(t, row, measured, &got, e))
            break;
        l->rows++;
        l->passed += strcmp(csv_table_text(t, row, status), "pass") == 0;
        if (strcmp(name, COLLECTED(LDSM_INSTRUCTIONS)) == 0)
            l->ldsm = got;
        else if (strcmp(name, COLLECTED(LDSM_WAVEFRONTS)) == 0)
            l->wavefronts = got;
        else if (strcmp(name, DERIVED(LDSM_WAVEFRONTS_PER_INST)) == 0)
            l->per_ldsm = got, l->closed_form = want;
        else if (strcmp(name, DERIVED(SHARED_EXCESS_ESTIMATE_LD)) == 0)
            l->excess = got;
    }
    return e->code ? -1 : n;
}

static void truth_row(FILE *f, const struct truth_layout *l)
{
    char name[80], cell[SWIZZLE_CELLS][48];
    snprintf(name, sizeof name, "truth, %.47s", l->parameter);
    report_format_count(cell[0], sizeof cell[0], l->ldsm);
    report_format_count(cell[1], sizeof cell[1], l->wavefronts);
    report_format_number(cell[2], sizeof cell[2], l->per_ldsm, "%.2f");
    report_format_number(cell[3], sizeof cell[3], l->closed_form, "%.0f");
    snprintf(cell[4], sizeof cell[4], "%s", l->passed == l->rows ? "exact" : "FAILED");
    report_format_count(cell[5], sizeof cell[5], l->excess);
    for (int i = 6; i < SWIZZLE_CELLS; ++i)
        snprintf(cell[i], sizeof cell[i], "-");
    put_row(f, 0, name, cell);
}

/* swizzle.tsv: the variants that ran ldmatrix, in the run's order (a run from before variants.csv had the tensor
 * ladder's steps has them too), then the ground truth's layouts; no page for a run with neither. */
int report_write_swizzle(const struct report_model *m, struct page_output *out, struct error *e)
{
    char path[PATH_IN_FOLDER_LEN];
    struct truth_layout layout[8];
    int rows = 0, layouts = truth_layouts(m->r, layout, 8, e);
    if (layouts < 0)
        return e->code;
    FILE *f = report_open(out->dir, "swizzle.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs(swizzle_header, f);
    for (int v = 0; v < m->variants && !e->code; ++v)
        rows += rung_row(f, m, v, e);
    for (int i = 0; i < layouts; ++i)
        truth_row(f, &layout[i]);
    if (e->code)
        return fclose(f), e->code;
    out->copies = rows + layouts > 0;
    fprintf(out->variables, "swizzle_rows = %d\n", rows + layouts);
    return report_close(f, path, e);
}

/* ---- The shapes page ---- */

/* A rung's TFLOP/s at size where it passed, else its status ("refused", "failed") or "-" where it did not run. */
static void speed_cell(char *cell, size_t len, const struct report_model *m, const char *name,
                       struct product_shape size)
{
    int row = results_summary_row(m->r, name, size);
    if (report_passed_at(m, name, size))
        report_format_number(cell, len, report_value_at(m, name, size, SUMMARY_GFLOPS) / 1000, "%.1f");
    else
        snprintf(cell, len, "%s", row < 0 ? "-" : report_row_text(m, row, SUMMARY_STATUS));
}

/* name's share of the library's speed at size: the library's median time over name's; "-" unless both passed. */
static void share_cell(char *cell, size_t len, const struct report_model *m, const char *name, const char *library,
                       struct product_shape size)
{
    if (report_passed_at(m, name, size) && report_passed_at(m, library, size))
        report_format_number(cell, len,
                             100.0 * report_value_at(m, library, size, SUMMARY_MEDIAN_MS) /
                                 report_value_at(m, name, size, SUMMARY_MEDIAN_MS),
                             "%.1f");
    else
        snprintf(cell, len, "-");
}

static void shape_row(FILE *f, const struct report_model *m, int top, struct product_shape size)
{
    const char *library = report_ladder_of(RESULTS_TENSOR_LADDER).reference, *name = m->variant[top];
    char shape[48], cell[6][48];
    snprintf(shape, sizeof shape, "%d x %d x %d", size.rows, size.cols, size.inner);
    speed_cell(cell[0], sizeof cell[0], m, name, size);
    speed_cell(cell[1], sizeof cell[1], m, library, size);
    share_cell(cell[2], sizeof cell[2], m, name, library, size);
    int fastest = report_ladder_fastest(m, RESULTS_TENSOR_LADDER, size);
    snprintf(cell[3], sizeof cell[3], "%s", fastest < 0 ? "-" : m->variant[fastest]);
    share_cell(cell[4], sizeof cell[4], m, fastest < 0 ? "" : m->variant[fastest], library, size);
    fputs("0\t", f);
    report_put_cell(f, shape, 0);
    for (int i = 0; i < 5; ++i)
        report_put_cell(f, cell[i], i == 4);
}

/* shapes.tsv: at every size the run measured (M x N x K: squares and products of other shapes, the least work first),
 * the tensor ladder's top rung (its last hand-written step) against cuBLAS bf16, and the fastest rung there; no page
 * for a run without both, or of one size. */
int report_write_shapes(const struct report_model *m, struct page_output *out, struct error *e)
{
    char path[PATH_IN_FOLDER_LEN];
    const char *library = report_ladder_of(RESULTS_TENSOR_LADDER).reference;
    int order[MAX_VARIANTS], steps = report_ladder_order(m, RESULTS_TENSOR_LADDER, order), top = -1;
    for (int i = 0; i < steps; ++i)
        if (strcmp(m->variant[order[i]], library) != 0)
            top = order[i];
    out->copies = top >= 0 && report_variant_index(m, library) >= 0 && m->shapes > 1;
    if (!out->copies)
        return 0;
    FILE *f = report_open(out->dir, "shapes.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("0\tM x N x K\ttop rung TFLOP/s\tcuBLAS bf16 TFLOP/s\ttop rung % cuBLAS\tfastest rung\tits % cuBLAS\n", f);
    for (int s = 0; s < m->shapes; ++s)
        shape_row(f, m, top, m->shape[s]);
    report_put_variable(out->variables, "shapes_top_rung", m->variant[top]);
    fprintf(out->variables, "shapes_rows = %d\n", m->shapes);
    return report_close(f, path, e);
}
