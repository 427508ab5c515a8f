/*
 * The diagnosis page: each variant's limiter and its evidence at the largest width, by harness/diagnose/'s rules
 * applied to the figures the run recorded (so a run taken before a rule changed reads as the rules say now), with
 * the warps' top stall reason where the stalls group ran. No page for a run that diagnosed nothing (no metrics).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/paths.h"
#include "../diagnose/diagnosis.h"
#include "../profile/metric_catalog.h"
#include "../results/schema.h"
#include "cells.h"
#include "pages.h"

/* lines.csv's sums for one variant at one width; rows 0 when the source group did not place it. */
struct shared_totals {
    int rows;
    double excess, wavefronts;
};

static int shared_totals(const struct csv_table *lines, const char *variant, int width, struct shared_totals *s,
                         struct error *e)
{
    int col[4];
    static const enum lines_column ids[] = {LINES_VARIANT, LINES_WIDTH, LINES_METRIC, LINES_VALUE};
    memset(s, 0, sizeof *s);
    for (int i = 0; lines && i < 4; ++i)
        if (schema_column(lines, &lines_csv, ids[i], &col[i], e))
            return e->code;
    for (int row = 0; lines && row < lines->rows && !e->code; ++row) {
        int w;
        double value;
        if (strcmp(csv_table_text(lines, row, col[0]), variant) || csv_table_int(lines, row, col[1], &w, e) ||
            w != width || csv_table_real(lines, row, col[3], &value, e))
            continue;
        const char *metric = csv_table_text(lines, row, col[2]);
        s->rows++;
        s->excess += strcmp(metric, "shared_excess_wavefronts") == 0 ? value : 0.0;
        s->wavefronts += strcmp(metric, "shared_wavefronts") == 0 ? value : 0.0;
    }
    return e->code;
}

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
    struct shared_totals s;
    if (shared_totals(lines, variant, width, &s, e))
        return NAN;
    double excess = s.rows ? s.excess : fmax(0.0, main_metric(m, variant, width, DERIVED(SHARED_EXCESS_ESTIMATE), e));
    double wavefronts = s.rows ? s.wavefronts
                               : main_metric(m, variant, width, COLLECTED(SHARED_LD_WAVEFRONTS), e) +
                                     main_metric(m, variant, width, COLLECTED(SHARED_ST_WAVEFRONTS), e);
    return wavefronts == 0.0 ? 0.0 : 100.0 * excess / wavefronts; /* no shared access: no conflict */
}

/* The diagnosis of one variant, by harness/diagnose/'s rules, from the figures the run recorded (metrics.csv,
 * lines.csv), with the warps' top stall reason from the summary. */
static int diagnose_variant(const struct report_model *m, const struct csv_table *lines, const char *variant,
                            int width, struct diagnosis *d, struct error *e)
{
    double values[DIAGNOSIS_INPUT_COUNT];
    for (int i = 0; i < DIAGNOSIS_INPUT_COUNT; ++i)
        values[i] = i == IN_CONFLICT_SHARE ? conflict_share(m, lines, variant, width, e)
                                           : main_metric(m, variant, width, diagnosis_input_name(i), e);
    /* No global load instruction (cp.async kernels): nothing is uncoalesced, whatever the efficiency reads. */
    if (main_metric(m, variant, width, COLLECTED(GLOBAL_LD_REQUESTS), e) == 0.0)
        values[IN_LOAD_EFFICIENCY] = 100.0;
    if (e->code)
        return e->code;
    diagnose(values, d);
    int row = results_summary_row(m->r, variant, width);
    int reason = schema_column_or_none(&m->r->summary, &summary_csv, SUMMARY_STALL_TOP_REASON);
    if (reason >= 0)
        diagnosis_add_stall(d, csv_table_text(&m->r->summary, row, reason),
                            report_summary_value(m, variant, width, SUMMARY_STALL_TOP_PCT));
    return 0;
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

static int write_rows(const struct report_model *m, int limiter, const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    int width = m->largest_width;
    FILE *f = report_open(dir, "diagnosis.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("0\tvariant\tlimiter\tevidence\n", f);
    for (int v = 0; v < m->variants && !e->code; ++v) {
        struct diagnosis d;
        if (!diagnosed(m, v, width, limiter) || report_diagnose(m, m->variant[v], width, &d, e))
            continue;
        fprintf(f, "%d\t", v + 1);
        report_put_cell(f, m->variant[v], 0);
        report_put_cell(f, d.limiter, 0);
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
