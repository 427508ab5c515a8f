/*
 * The diagnosis page: each variant's limiter and its evidence at the largest width, by harness/diagnose/'s rules
 * applied to the figures the run recorded (so a run taken before a rule changed reads as the rules say now), with
 * the warps' top stall reason where the stalls group ran, and the first of its findings by today's rules too, from the
 * counters the run stored and the launch as its summary keeps it, with their estimated gain. No page for a run that
 * diagnosed nothing (no metrics).
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/paths.h"
#include "../diagnose/diagnosis.h"
#include "../profile/metric_catalog.h"
#include "../profile/metric_set.h"
#include "../diagnose/findings.h"
#include "../program/line_findings.h"
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
    results_main_kernel_metric(m->r, variant, product_shape_square(width), metric, &value, e);
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

/* An SM's limits as environment.csv keeps them (NAN where a key is missing). */
static int sm_limits_of(const struct results_folder *r, struct sm_limits *sm, double *sm_count, struct error *e)
{
    if (results_environment_number(r, "sm_max_warps", &sm->max_warps, e) ||
        results_environment_number(r, "sm_max_blocks", &sm->max_blocks, e) ||
        results_environment_number(r, "sm_registers", &sm->registers, e) ||
        results_environment_number(r, "sm_shared_memory_bytes", &sm->shared_bytes, e) ||
        results_environment_number(r, "block_reserved_shared_memory_bytes", &sm->reserved_shared_per_block, e))
        return e->code;
    return results_environment_number(r, "sm_count", sm_count, e);
}

/* A variant's main kernel's stored metrics, and its derived metrics worked out again from its stored counters by
 * today's catalog: a metric derived since the run (a rule's input) reads from what the run collected. */
#define MAX_STORED (2 * (MAX_METRICS + MAX_DERIVED))
struct stored_metrics {
    const char *names[MAX_STORED];
    double values[MAX_STORED];
    int n;
    struct derived_metric derived[MAX_DERIVED];
};

static int stored_metrics_read(const struct report_model *m, const char *variant, int width,
                               struct stored_metrics *s, struct error *e)
{
    if (results_main_kernel_metrics(m->r, variant, product_shape_square(width), s->names, s->values, MAX_STORED, &s->n,
                                    e))
        return e->code;
    metrics_derive(s->names, s->values, s->n, s->derived);
    return 0;
}

/* A metric by name: derived again where its counters were stored, else as the run wrote it (NAN: neither). */
static double stored(const struct stored_metrics *s, const char *name)
{
    for (int i = 0; i < MAX_DERIVED; ++i)
        if (strcmp(s->derived[i].name, name) == 0 && !isnan(s->derived[i].value))
            return s->derived[i].value;
    return s->n ? metric_lookup(s->names, s->values, s->n, name) : NAN;
}

/* Every input of the diagnosis and the findings for one variant, from what the run recorded: metrics.csv by name,
 * lines.csv (the conflict share, the shared excess and the lines), the launch as summary.csv keeps it and the SM as
 * environment.csv does; the tensor figures are the report's (tensor.h: over the median time, against the roof
 * environment.csv holds), which the roofline and the tables show too. */
static int variant_inputs(const struct report_model *m, const struct csv_table *lines, const char *variant, int width,
                          double values[DIAGNOSIS_INPUT_COUNT], struct finding_lines *placed, struct tensor_work *t,
                          struct error *e)
{
    static struct stored_metrics s; /* too large for the stack beside the callers' tables */
    struct sm_limits sm;
    double sm_count, exact_wavefronts;
    if (report_tensor_work(m, variant, width, t, e) || sm_limits_of(m->r, &sm, &sm_count, e) ||
        finding_lines_read(lines, variant, product_shape_square(width), placed, &exact_wavefronts, e) ||
        stored_metrics_read(m, variant, width, &s, e))
        return e->code;
    for (int i = 0; i < DIAGNOSIS_INPUT_COUNT; ++i)
        values[i] = i == IN_CONFLICT_SHARE ? conflict_share(m, lines, variant, width, e)
                                           : stored(&s, diagnosis_input_name(i));
    values[IN_TENSOR_GFLOPS] = t->gflops;
    values[IN_TENSOR_ROOF_PCT] = t->roof_pct;
    /* No global load (store) instruction (cp.async kernels): nothing is uncoalesced, whatever the efficiency reads. */
    if (stored(&s, COLLECTED(GLOBAL_LD_REQUESTS)) == 0.0)
        values[IN_LOAD_EFFICIENCY] = 100.0;
    if (stored(&s, COLLECTED(GLOBAL_ST_REQUESTS)) == 0.0)
        values[IN_STORE_EFFICIENCY] = 100.0;
    const double estimate[2] = {stored(&s, DERIVED(SHARED_EXCESS_ESTIMATE_LD)),
                                stored(&s, DERIVED(SHARED_EXCESS_ESTIMATE_ST))};
    const double hardware[2] = {stored(&s, COLLECTED(SHARED_LD_CONFLICTS_HW)),
                                stored(&s, COLLECTED(SHARED_ST_CONFLICTS_HW))};
    findings_shared_inputs(placed, exact_wavefronts, estimate, hardware,
                           stored(&s, COLLECTED(SHARED_LD_WAVEFRONTS)) + stored(&s, COLLECTED(SHARED_ST_WAVEFRONTS)),
                           values);
    findings_launch_inputs(&sm, sm_count, report_summary_value(m, variant, width, SUMMARY_REGISTERS_PER_THREAD),
                           report_summary_value(m, variant, width, SUMMARY_STATIC_SMEM_BYTES) +
                               report_summary_value(m, variant, width, SUMMARY_DYNAMIC_SMEM_BYTES),
                           report_summary_value(m, variant, width, SUMMARY_THREADS_PER_BLOCK), values);
    return e->code;
}

static const char *tensor_type_of(const struct tensor_work *t)
{
    return t->type < 0 ? NULL : report_tensor_type_name(t->type);
}

int report_findings(const struct report_model *m, const char *variant, int width, struct finding out[], int max,
                    int *n, char *unjudged, size_t len, struct error *e)
{
    double values[DIAGNOSIS_INPUT_COUNT];
    struct finding_lines placed;
    struct tensor_work t;
    *n = 0;
    if (variant_inputs(m, m->has_lines ? &m->lines : NULL, variant, width, values, &placed, &t, e))
        return e->code;
    *n = diagnose_findings(values, tensor_type_of(&t), &placed, out, max);
    findings_unjudged(values, unjudged, len);
    return 0;
}

/* The diagnosis of one variant, by harness/diagnose/'s rules, from the figures the run recorded (variant_inputs),
 * with the warps' top stall reason from the summary. */
static int diagnose_variant(const struct report_model *m, const struct csv_table *lines, const char *variant,
                            int width, struct diagnosis *d, struct error *e)
{
    double values[DIAGNOSIS_INPUT_COUNT];
    struct finding_lines placed;
    struct tensor_work t;
    if (variant_inputs(m, lines, variant, width, values, &placed, &t, e))
        return e->code;
    diagnose(values, tensor_type_of(&t), d);
    int row = results_summary_row(m->r, variant, product_shape_square(width));
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
    int row = results_summary_row(m->r, m->variant[v], product_shape_square(width));
    return row >= 0 && csv_table_text(&m->r->summary, row, limiter)[0] != '\0';
}

/* The first finding of variant at width by today's rules (report_findings), with its gain, an estimate; "none"
 * where no rule fired. */
static int first_finding_cell(const struct report_model *m, const char *variant, int width, char *cell, size_t len,
                              struct error *e)
{
    struct finding f[FINDING_MAX];
    char unjudged[512];
    int n;
    if (report_findings(m, variant, width, f, FINDING_MAX, &n, unjudged, sizeof unjudged, e))
        return e->code;
    if (n == 0)
        snprintf(cell, len, "none");
    else {
        char gain[16];
        report_format_gain(gain, sizeof gain, f[0].gain_pct);
        snprintf(cell, len, "%s (est. %s %%, %s)", f[0].cause, gain, f[0].global ? "global" : "local");
    }
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

/* The rules the run's counters could not judge (a run before they were collected), as the first diagnosed variant
 * at the largest width has them: a run collects one set of metrics for all. */
static int write_unjudged(const struct report_model *m, int limiter, FILE *variables, struct error *e)
{
    struct finding f[FINDING_MAX];
    char unjudged[FINDING_MAX * FINDING_CAUSE_LEN] = "";
    int n;
    for (int v = 0; v < m->variants; ++v)
        if (diagnosed(m, v, m->largest_width, limiter)) {
            if (report_findings(m, m->variant[v], m->largest_width, f, FINDING_MAX, &n, unjudged, sizeof unjudged, e))
                return e->code;
            break;
        }
    fprintf(variables, "diagnosis_unjudged = \"%s\"\n", unjudged);
    return 0;
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
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    fprintf(out->variables, "diagnosis_rows = %d\n", rows);
    snprintf(path, sizeof path, "%s/diagnosis.tsv", out->dir);
    /* the columns from the widths their cells take, at 7 points where the evidence then ends on the page */
    if (write_rows(m, limiter, out->dir, e) || write_unjudged(m, limiter, out->variables, e))
        return e->code;
    return report_table_layout(out->variables, "diagnosis_table", path, 2, 4, 0.02, 1.0, 7.0, 5.0, e);
}
