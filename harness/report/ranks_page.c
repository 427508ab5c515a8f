/*
 * The straggler view of a multi-process program's profile (issue 41): the same job (a kernel at its NVTX path and
 * ordinal) in every rank's part, side by side: its median time in each part, the slowest part and by how much it
 * exceeds the fastest, and which of the summary's counters differ between those two by more than
 * RANKS_COUNTER_GAP of the larger. The jobs whose ranks differ most come first. Drawn only for a profile whose jobs
 * are keyed by part (results/job_name.h) and where some job ran in two parts or more.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/paths.h"
#include "../results/job_name.h"
#include "cells.h"
#include "job_label.h"
#include "pages.h"

#define RANKS_COUNTER_GAP 0.05
#define RANKS_MAX_PARTS 64

/* The counters compared between the slowest part and the fastest: launches, then the summary's metric columns. */
static const struct {
    enum summary_column id;
    const char *name;
} counters[] = {
    {SUMMARY_SAMPLES, "launches"},
    {SUMMARY_DRAM_GBS, "DRAM GB/s"},
    {SUMMARY_ACHIEVED_OCCUPANCY_PCT, "occupancy"},
    {SUMMARY_SOL_SM_PCT, "SM %"},
    {SUMMARY_SOL_MEMORY_PCT, "memory %"},
    {SUMMARY_SOL_L2_PCT, "L2 %"},
    {SUMMARY_SOL_DRAM_PCT, "DRAM %"},
    {SUMMARY_ISSUE_SLOTS_PCT, "issue slots"},
    {SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT, "load efficiency"},
    {SUMMARY_REGISTERS_PER_THREAD, "registers"},
    {SUMMARY_THREADS_PER_BLOCK, "threads per block"},
};

/* One job across parts: the summary rows of its parts, and its spread. */
struct across {
    const char *job; /* within its part */
    int rows[RANKS_MAX_PARTS], n;
    int slowest, fastest; /* indices in rows */
    double gap;           /* the slowest's median over the fastest's, less 1 */
};

static double median_of(const struct report_model *m, int row)
{
    return report_summary_value(m, csv_table_text(&m->r->summary, row, m->r->col_variant), m->r->summary_width[row],
                                SUMMARY_MEDIAN_MS);
}

static double value_of(const struct report_model *m, int row, enum summary_column id)
{
    return report_summary_value(m, csv_table_text(&m->r->summary, row, m->r->col_variant), m->r->summary_width[row],
                                id);
}

static const char *within(const struct report_model *m, int row, const char **label, size_t *label_len)
{
    const char *rest;
    job_name_part(csv_table_text(&m->r->summary, row, m->r->col_variant), label, label_len, &rest);
    return rest;
}

/* Every job of two parts or more, its rows gathered (a job of one part is no comparison). */
static struct across *gather(const struct report_model *m, int *n, struct error *e)
{
    int rows = m->r->summary.rows;
    struct across *all = calloc((size_t)rows + 1, sizeof *all);
    *n = 0;
    if (!all)
        return error_set(e, EXIT_RUNTIME, "out of memory"), NULL;
    for (int row = 0; row < rows; ++row) {
        const char *label;
        size_t label_len;
        const char *job = within(m, row, &label, &label_len);
        int i = 0;
        if (label_len == 0 || isnan(median_of(m, row)))
            continue;
        while (i < *n && strcmp(all[i].job, job) != 0)
            ++i;
        if (i == *n)
            all[(*n)++] = (struct across){.job = job};
        if (all[i].n < RANKS_MAX_PARTS)
            all[i].rows[all[i].n++] = row;
    }
    int kept = 0;
    for (int i = 0; i < *n; ++i)
        if (all[i].n > 1)
            all[kept++] = all[i];
    *n = kept;
    return all;
}

static void spread(const struct report_model *m, struct across *a)
{
    a->slowest = a->fastest = 0;
    for (int i = 1; i < a->n; ++i) {
        if (median_of(m, a->rows[i]) > median_of(m, a->rows[a->slowest]))
            a->slowest = i;
        if (median_of(m, a->rows[i]) < median_of(m, a->rows[a->fastest]))
            a->fastest = i;
    }
    double fast = median_of(m, a->rows[a->fastest]);
    a->gap = fast > 0 ? median_of(m, a->rows[a->slowest]) / fast - 1 : NAN;
}

static int by_gap(const void *x, const void *y)
{
    const struct across *a = x, *b = y;
    double ga = isnan(a->gap) ? -1 : a->gap, gb = isnan(b->gap) ? -1 : b->gap;
    return ga < gb ? 1 : ga > gb ? -1 : strcmp(a->job, b->job);
}

/* The counters that differ between the slowest part and the fastest, "," separated; "none" where none does. */
static void differing(const struct report_model *m, const struct across *a, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t c = 0; c < sizeof counters / sizeof counters[0]; ++c) {
        double slow = value_of(m, a->rows[a->slowest], counters[c].id);
        double fast = value_of(m, a->rows[a->fastest], counters[c].id);
        double larger = fmax(fabs(slow), fabs(fast));
        if (isnan(slow) || isnan(fast) || fabs(slow - fast) <= RANKS_COUNTER_GAP * larger)
            continue;
        used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s%s", used ? ", " : "",
                                 counters[c].name);
    }
    if (!out[0])
        snprintf(out, size, "none");
}

static void part_name(const struct report_model *m, int row, char *out, size_t size)
{
    const char *label;
    size_t label_len;
    within(m, row, &label, &label_len);
    snprintf(out, size, "%.*s", (int)label_len, label);
}

static void times_per_part(const struct report_model *m, const struct across *a, char *out, size_t size)
{
    size_t used = 0;
    char name[64], ms[32];
    for (int i = 0; i < a->n && used < size; ++i) {
        part_name(m, a->rows[i], name, sizeof name);
        report_format_significant(ms, sizeof ms, median_of(m, a->rows[i]), 3);
        used += (size_t)snprintf(out + used, size - used, "%s%s %s", i ? ", " : "", name, ms);
    }
}

static void across_row(FILE *f, const struct report_model *m, const struct across *a)
{
    char kernel[REPORT_JOB_LABEL_LEN], cell[1024], slowest[64], gap[32];
    int row = a->rows[a->slowest];
    int column = schema_column_or_none(&m->r->summary, &summary_csv, SUMMARY_METRICS_KERNEL);
    report_job_label(a->job, column < 0 ? "" : csv_table_text(&m->r->summary, row, column), kernel, sizeof kernel);
    report_put_cell(f, kernel, 0);
    times_per_part(m, a, cell, sizeof cell);
    report_put_cell(f, cell, 0);
    part_name(m, row, slowest, sizeof slowest);
    report_put_cell(f, slowest, 0);
    report_format_number(gap, sizeof gap, 100 * a->gap, "+%.1f %%");
    report_put_cell(f, gap, 0);
    differing(m, a, cell, sizeof cell);
    report_put_cell(f, cell, 1);
}

int report_write_ranks(const struct report_model *m, struct page_output *out, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    int n;
    out->copies = 0;
    struct across *all = gather(m, &n, e);
    if (!all || n == 0) {
        free(all);
        return e->code;
    }
    for (int i = 0; i < n; ++i)
        spread(m, &all[i]);
    qsort(all, (size_t)n, sizeof *all, by_gap);
    FILE *f = report_open(out->dir, "ranks.tsv", path, sizeof path, e);
    if (!f) {
        free(all);
        return e->code;
    }
    fputs("job (slowest rank's)\tmedian ms per rank\tslowest\tover the fastest\tcounters that differ\n", f);
    int shown = n < REPORT_KERNELS_PER_PAGE ? n : REPORT_KERNELS_PER_PAGE;
    for (int i = 0; i < shown; ++i)
        across_row(f, m, &all[i]);
    free(all);
    out->copies = 1;
    fprintf(out->variables, "ranks_rows = %d\nranks_jobs = %d\nranks_counter_gap_pct = %g\n", shown + 1, n,
            100 * RANKS_COUNTER_GAP);
    return report_close(f, path, e);
}
