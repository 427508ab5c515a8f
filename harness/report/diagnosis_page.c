/*
 * The diagnosis page: each variant's limiter and its evidence at the largest width, by harness/diagnose/'s rules
 * applied to the figures the run recorded (so a run taken before a rule changed reads as the rules say now), with
 * the warps' top stall reason where the stalls group ran, and the first of its findings as the run recorded them
 * (findings.csv: they need the launch's facts, which the folder does not keep) with their estimated gain. No page for
 * a run that diagnosed nothing (no metrics).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../common/paths.h"
#include "../diagnose/diagnosis.h"
#include "../profile/metric_catalog.h"
#include "../results/findings_csv.h"
#include "../results/schema.h"
#include "cells.h"
#include "pages.h"
#include "tensor.h"

#define FINDING_CELL_LEN 96

/* A table's values (lines.csv, stalls.csv) for one variant at one width: rows 0 when the table does not place it;
 * all, their sum; named, the sum of the rows whose name column (a metric, a reason) reads name. */
struct named_sum {
    int rows;
    double named, all;
};

/* ids: the table's variant, width, name and value columns. */
static int named_sum(const struct csv_table *t, const struct csv_schema *schema, const int ids[4], const char *variant,
                     int width, const char *name, struct named_sum *s, struct error *e)
{
    int col[4];
    memset(s, 0, sizeof *s);
    for (int i = 0; t && i < 4; ++i)
        if (schema_column(t, schema, ids[i], &col[i], e))
            return e->code;
    for (int row = 0; t && row < t->rows && !e->code; ++row) {
        int w;
        double value;
        if (strcmp(csv_table_text(t, row, col[0]), variant) || csv_table_int(t, row, col[1], &w, e) || w != width ||
            csv_table_real(t, row, col[3], &value, e))
            continue;
        s->rows++;
        s->all += value;
        s->named += strcmp(csv_table_text(t, row, col[2]), name) == 0 ? value : 0.0;
    }
    return e->code;
}

static const int lines_ids[4] = {LINES_VARIANT, LINES_WIDTH, LINES_METRIC, LINES_VALUE};

static double main_metric(const struct report_model *m, const char *variant, int width, const char *metric,
                          struct error *e)
{
    double value = NAN;
    results_main_kernel_metric(m->r, variant, width, metric, &value, e);
    return value;
}

/* The share of shared wavefronts that are bank conflicts, as the run computed it: the source group's exact count
 * over all shared wavefronts where lines.csv places the variant, else the kernel-total estimate. */
static double conflict_share(const struct report_model *m, const struct csv_table *lines, const char *variant,
                             int width, struct error *e)
{
    struct named_sum excess_sum, wavefronts_sum;
    if (named_sum(lines, &lines_csv, lines_ids, variant, width, "shared_excess_wavefronts", &excess_sum, e) ||
        named_sum(lines, &lines_csv, lines_ids, variant, width, "shared_wavefronts", &wavefronts_sum, e))
        return NAN;
    bool sourced = excess_sum.rows > 0;
    double estimate = main_metric(m, variant, width, DERIVED(SHARED_EXCESS_ESTIMATE), e);
    double hardware = main_metric(m, variant, width, DERIVED(SHARED_CONFLICTS_HW), e);
    double excess = sourced ? excess_sum.named : diagnosis_shared_excess_bound(estimate, hardware);
    double wavefronts = sourced ? wavefronts_sum.named
                               : main_metric(m, variant, width, COLLECTED(SHARED_LD_WAVEFRONTS), e) +
                                     main_metric(m, variant, width, COLLECTED(SHARED_ST_WAVEFRONTS), e);
    return wavefronts == 0.0 ? 0.0 : 100.0 * excess / wavefronts; /* no shared access: no conflict */
}

/* The share of a tensor kernel's stall samples on the wgmma's operands (DIAGNOSIS_GMMA_STALL); NAN for a kernel
 * that ran no tensor operation or a run that did not sample it. */
static double gmma_share(const struct report_model *m, const char *variant, int width, const struct tensor_work *t,
                         struct error *e)
{
    static const int ids[4] = {STALLS_VARIANT, STALLS_WIDTH, STALLS_REASON, STALLS_SAMPLES};
    struct named_sum s;
    if (t->type < 0 || !m->has_stalls ||
        named_sum(&m->stalls, &stalls_csv, ids, variant, width, DIAGNOSIS_GMMA_STALL, &s, e) || !(s.all > 0))
        return NAN;
    return 100.0 * s.named / s.all;
}

/* The diagnosis of one variant, by harness/diagnose/'s rules, from the figures the run recorded (metrics.csv,
 * lines.csv), with the warps' top stall reason from the summary. Its tensor figures are the report's (tensor.h:
 * over the median time, against the roof environment.csv holds), which the roofline and the tables show too. */
static int diagnose_variant(const struct report_model *m, const struct csv_table *lines, const char *variant,
                            int width, struct diagnosis *d, struct error *e)
{
    double values[DIAGNOSIS_INPUT_COUNT];
    struct tensor_work t;
    if (report_tensor_work(m, variant, width, &t, e))
        return e->code;
    for (int i = 0; i < DIAGNOSIS_INPUT_COUNT; ++i)
        values[i] = i == IN_CONFLICT_SHARE ? conflict_share(m, lines, variant, width, e)
                                           : main_metric(m, variant, width, diagnosis_input_name(i), e);
    values[IN_TENSOR_GFLOPS] = t.gflops;
    values[IN_TENSOR_ROOF_PCT] = t.roof_pct;
    /* No global load instruction (cp.async kernels): nothing is uncoalesced, whatever the efficiency reads. */
    if (main_metric(m, variant, width, COLLECTED(GLOBAL_LD_REQUESTS), e) == 0.0)
        values[IN_LOAD_EFFICIENCY] = 100.0;
    if (e->code)
        return e->code;
    diagnose(values, t.type < 0 ? NULL : report_tensor_type_name(t.type), d);
    int row = results_summary_row(m->r, variant, width);
    int reason = schema_column_or_none(&m->r->summary, &summary_csv, SUMMARY_STALL_TOP_REASON);
    double gmma = gmma_share(m, variant, width, &t, e);
    if (reason >= 0 && !e->code)
        diagnosis_add_stall(d, csv_table_text(&m->r->summary, row, reason),
                            report_summary_value(m, variant, width, SUMMARY_STALL_TOP_PCT), gmma);
    return e->code;
}

int report_diagnose(const struct report_model *m, const char *variant, int width, struct diagnosis *d,
                    struct error *e)
{
    return diagnose_variant(m, m->has_lines ? &m->lines : NULL, variant, width, d, e);
}

/* The variants the run diagnosed at width (a limiter in the summary: it collected metrics for them). */
static int diagnosed(const struct report_model *m, int v, int width, int limiter)
{
    int row = results_summary_row(m->r, m->variant[v], width);
    return row >= 0 && csv_table_text(&m->r->summary, row, limiter)[0] != '\0';
}

/* The first finding the run recorded for variant at width (findings.csv), with its gain, an estimate: "not
 * collected" for a run before findings were (or a variant without any). */
static int first_finding_cell(const struct report_model *m, const char *variant, int width, char *cell, size_t len,
                              struct error *e)
{
    struct finding_row first;
    int found = 0;
    if (m->r->has_findings && findings_csv_first(&m->r->findings, variant, width, &first, &found, e))
        return e->code;
    if (!found)
        snprintf(cell, len, "not collected");
    else
        snprintf(cell, len, "%s (est. %.0f %%, %s)", first.cause, first.estimated_gain_pct, first.scope);
    return 0;
}

static int write_rows(const struct report_model *m, int limiter, const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    int width = m->largest_width;
    FILE *f = report_open(dir, "diagnosis.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("0\tvariant\tlimiter\tfirst finding (estimated gain)\tevidence\n", f);
    for (int v = 0; v < m->variants && !e->code; ++v) {
        struct diagnosis d;
        char finding[FINDING_CELL_LEN];
        if (!diagnosed(m, v, width, limiter) || report_diagnose(m, m->variant[v], width, &d, e) ||
            first_finding_cell(m, m->variant[v], width, finding, sizeof finding, e))
            continue;
        fprintf(f, "%d\t", v + 1);
        report_put_cell(f, m->variant[v], 0);
        report_put_cell(f, d.limiter, 0);
        report_put_cell(f, finding, 0);
        report_put_cell(f, d.evidence, 1);
    }
    return e->code ? (fclose(f), e->code) : report_close(f, path, e);
}

/* diagnosis.tsv; no page (and nothing written) when no variant has a limiter. */
int report_write_diagnosis(const struct report_model *m, struct page_output *out, struct error *e)
{
    int limiter = csv_table_column_or_none(&m->r->summary, summary_csv.columns[SUMMARY_LIMITER]), rows = 0;
    for (int v = 0; limiter >= 0 && v < m->variants; ++v)
        rows += diagnosed(m, v, m->largest_width, limiter);
    out->copies = rows > 0;
    if (rows == 0)
        return 0;
    fprintf(out->variables, "diagnosis_rows = %d\n", rows);
    return write_rows(m, limiter, out->dir, e);
}
