/*
 * The straggler view of a multi-process program's profile (issues 41 and 48), two pages. "Ranks compared": the same
 * kernel in every part that launched it, side by side: its median launch in each part, the slowest part and by how
 * much it exceeds the fastest, and which of the summary's counters (of each part's first launch of it) differ between
 * those two by more than RANKS_COUNTER_GAP of the larger; the kernels whose parts differ most come first. A
 * collective's duration is mostly waiting for the other ranks, so collectives are not compared there but on
 * "Collectives: wait and transfer" (program/collectives.h). A launch that ran beside one of its rank's collectives
 * shares the SMs with the collective's wait (program/collectives.h) and is slower for it, the more so on the rank
 * that waited more: the medians are of the launches alone, and how many ran beside one is said per rank. The
 * collectives page: per part, its time in collectives split into waiting for
 * the last arrival and the transfer after it, and how often it arrived last; then the collectives with the longest
 * waits, each with the rank that arrived last (the straggler) and whether memscope's replay of that rank's launches
 * since its collective before made it late.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/paths.h"
#include "../common/stats.h"
#include "../program/collectives.h"
#include "../results/job_name.h"
#include "cells.h"
#include "../program/labels.h"
#include "pages.h"

#define RANKS_COUNTER_GAP 0.05
/* Counters named per row, as the page's last column holds them; how many more differ is said. */
#define RANKS_COUNTERS_NAMED 3
/* A kernel a line: as many as the kernels page's rows, which take two lines each (the training script's page showed
 * 14 of 36 kernels in the top half of the page). */
#define RANKS_ROWS_MAX (2 * REPORT_KERNELS_PER_PAGE)
#define RANKS_MAX_PARTS 64
/* The collectives page's table of parts: its first parts, the rest in collectives.csv. */
#define COLLECTIVES_PARTS_SHOWN 16

/* The counters compared between the slowest part and the fastest: the summary's metric columns. */
static const struct {
    enum summary_column id;
    const char *name;
} counters[] = {
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

/* The parts of the profile, by the labels its jobs begin with. */
struct parts {
    const char *label[RANKS_MAX_PARTS];
    size_t len[RANKS_MAX_PARTS];
    int n;
};

/* One kernel in each part: the durations of its launches there that ran alone, its first job there, and how many of
 * its first run's launches there ran beside a collective, of how many. */
struct in_part {
    double *ms;
    size_t n;
    int first_row;
    size_t beside, first_run;
};

/* One kernel across parts: its median per part, and its spread. */
struct across {
    int kernel;
    int n;                    /* parts that launched it */
    int part[RANKS_MAX_PARTS];
    double median[RANKS_MAX_PARTS]; /* of its launches there that ran alone; NAN where each ran beside a collective */
    int first_row[RANKS_MAX_PARTS];
    size_t beside[RANKS_MAX_PARTS], first_run[RANKS_MAX_PARTS];
    int slowest, fastest;     /* indices in part[], of the parts with a median; -1 where fewer than two have one */
    double gap;               /* the slowest's median over the fastest's, less 1; NAN without them */
};

static int part_of(struct parts *p, const char *job)
{
    const char *label, *rest;
    size_t len;
    job_name_part(job, &label, &len, &rest);
    if (len == 0)
        return -1;
    for (int i = 0; i < p->n; ++i)
        if (p->len[i] == len && strncmp(p->label[i], label, len) == 0)
            return i;
    if (p->n == RANKS_MAX_PARTS)
        return -1;
    p->label[p->n] = label;
    p->len[p->n] = len;
    return p->n++;
}

/* Every timed launch into its kernel's list in its part, those beside a collective (beside: per summary row) only
 * counted; cells[kernel * RANKS_MAX_PARTS + part]. */
static struct in_part *spread_samples(const struct report_model *m, const bool *beside, struct parts *p,
                                      struct error *e)
{
    const struct results_folder *r = m->r;
    struct in_part *cells = calloc(m->kernels.n * RANKS_MAX_PARTS + 1, sizeof *cells);
    int *part_of_row = malloc(((size_t)r->summary.rows + 1) * sizeof *part_of_row);
    if (!cells || !part_of_row) {
        free(part_of_row);
        free(cells);
        return error_set(e, EXIT_RUNTIME, "out of memory"), NULL;
    }
    for (size_t i = 0; i < m->kernels.n * RANKS_MAX_PARTS; ++i)
        cells[i].first_row = -1;
    for (int row = 0; row < r->summary.rows; ++row) {
        part_of_row[row] = m->kernels.autotuning_row[row] ? -1 /* not the program's */
                                                          : part_of(p, csv_table_text(&r->summary, row, r->col_variant));
        if (part_of_row[row] < 0)
            continue;
        struct in_part *c = &cells[(size_t)m->kernels.kernel_of_row[row] * RANKS_MAX_PARTS + (size_t)part_of_row[row]];
        if (c->first_row < 0)
            c->first_row = row;
        c->beside += beside[row];
        c->first_run++;
    }
    for (int s = 0; s < r->samples.rows && !e->code; ++s) {
        int row = r->sample_summary_row[s];
        if (part_of_row[row] < 0 || beside[row]) /* a job's every run, as its first run's launch was */
            continue;
        struct in_part *c = &cells[(size_t)m->kernels.kernel_of_row[row] * RANKS_MAX_PARTS + (size_t)part_of_row[row]];
        if (grow_for_one_more((void **)&c->ms, c->n, sizeof *c->ms) != 0)
            error_set(e, EXIT_RUNTIME, "out of memory");
        else
            c->ms[c->n++] = r->sample_ms[s];
    }
    free(part_of_row);
    return cells;
}

static double median(const double *ms, size_t n)
{
    struct sample_stats s;
    return n && stats_compute(ms, (int)n, &s) == 0 ? s.median : NAN;
}

/* The kernel (not a collective) in every part that launched it, its median there over the launches that ran alone (NAN
 * where every one ran beside a collective); the slowest and fastest of those with a median, and the gap between them
 * (NAN, slowest and fastest -1, where fewer than two have one). 0 where fewer than two parts launched it. */
static int gather_one(const struct report_model *m, const struct in_part *cells, int parts, int kernel,
                      struct across *a)
{
    *a = (struct across){.kernel = kernel, .slowest = -1, .fastest = -1, .gap = NAN};
    if (m->kernels.at[kernel].collective)
        return 0;
    for (int p = 0; p < parts; ++p) {
        const struct in_part *c = &cells[(size_t)kernel * RANKS_MAX_PARTS + (size_t)p];
        if (c->first_row < 0)
            continue;
        a->part[a->n] = p;
        a->median[a->n] = c->n ? median(c->ms, c->n) : NAN;
        a->beside[a->n] = c->beside;
        a->first_run[a->n] = c->first_run;
        a->first_row[a->n++] = c->first_row;
    }
    int timed = 0;
    for (int i = 0; i < a->n; ++i) {
        if (isnan(a->median[i]))
            continue;
        a->slowest = timed == 0 || a->median[i] > a->median[a->slowest] ? i : a->slowest;
        a->fastest = timed == 0 || a->median[i] < a->median[a->fastest] ? i : a->fastest;
        ++timed;
    }
    if (timed < 2)
        a->slowest = a->fastest = -1;
    else if (a->median[a->fastest] > 0)
        a->gap = a->median[a->slowest] / a->median[a->fastest] - 1;
    return a->n >= 2;
}

static int by_gap(const void *x, const void *y)
{
    const struct across *a = x, *b = y;
    double ga = isnan(a->gap) ? -1 : a->gap, gb = isnan(b->gap) ? -1 : b->gap;
    return ga < gb ? 1 : ga > gb ? -1 : a->kernel - b->kernel;
}

/* The counters that differ between the slowest part and the fastest, "," separated; "none" where none does. */
static void differing(const struct report_model *m, const struct across *a, char *out, size_t size)
{
    size_t used = 0;
    int named = 0, more = 0;
    out[0] = '\0';
    for (size_t c = 0; c < sizeof counters / sizeof counters[0]; ++c) {
        double slow = report_row_value(m, a->first_row[a->slowest], counters[c].id);
        double fast = report_row_value(m, a->first_row[a->fastest], counters[c].id);
        double larger = fmax(fabs(slow), fabs(fast));
        if (isnan(slow) || isnan(fast) || fabs(slow - fast) <= RANKS_COUNTER_GAP * larger)
            continue;
        if (named == RANKS_COUNTERS_NAMED) {
            ++more;
            continue;
        }
        used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s%s", used ? ", " : "",
                                 counters[c].name);
        ++named;
    }
    if (more && used < size)
        snprintf(out + used, size - used, " and %d more", more);
    if (!out[0])
        snprintf(out, size, "none");
}

static void across_row(FILE *f, const struct report_model *m, const struct parts *p, const struct across *a)
{
    char name[JOB_LABEL_LEN], cell[1024], slowest[64], gap[32], ms[32];
    size_t used = 0;
    program_kernel_name(&m->kernels, &m->kernels.at[a->kernel], KERNEL_LABEL_MAX, name, sizeof name);
    report_put_cell(f, name, 0);
    cell[0] = '\0';
    for (int i = 0; i < a->n && used < sizeof cell; ++i) {
        if (isnan(a->median[i]))
            snprintf(ms, sizeof ms, "none alone");
        else
            report_format_significant(ms, sizeof ms, a->median[i], 3);
        used += (size_t)snprintf(cell + used, sizeof cell - used, "%s%.*s %s", i ? ", " : "",
                                 (int)p->len[a->part[i]], p->label[a->part[i]], ms);
    }
    report_put_cell(f, cell, 0);
    if (a->slowest < 0)
        snprintf(slowest, sizeof slowest, "-");
    else
        snprintf(slowest, sizeof slowest, "%.*s", (int)p->len[a->part[a->slowest]], p->label[a->part[a->slowest]]);
    report_put_cell(f, slowest, 0);
    if (isnan(a->gap))
        snprintf(gap, sizeof gap, "-");
    else
        report_format_number(gap, sizeof gap, 100 * a->gap, "+%.1f %%");
    report_put_cell(f, gap, 0);
    used = 0;
    for (int i = 0; i < a->n && used < sizeof cell; ++i)
        used += (size_t)snprintf(cell + used, sizeof cell - used, "%s%zu/%zu", i ? ", " : "", a->beside[i],
                                 a->first_run[i]);
    report_put_cell(f, cell, 0);
    if (a->slowest < 0)
        snprintf(cell, sizeof cell, "-");
    else
        differing(m, a, cell, sizeof cell);
    report_put_cell(f, cell, 1);
}

static void free_cells(struct in_part *cells, size_t n)
{
    for (size_t i = 0; cells && i < n; ++i)
        free(cells[i].ms);
    free(cells);
}

int report_write_ranks(const struct report_model *m, struct page_output *out, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    struct parts p = {.n = 0};
    struct program_collectives collectives;
    int n = 0;
    out->copies = 0;
    if (!m->program || m->kernels.grouping == GROUP_BY_LAUNCH) /* a launch is in one part: nothing to set beside it */
        return 0;
    if (program_collectives_build(m->r, &collectives, e))
        return e->code;
    struct in_part *cells = spread_samples(m, collectives.beside_row, &p, e);
    struct across *all = cells ? calloc(m->kernels.n + 1, sizeof *all) : NULL;
    if (cells && !all)
        error_set(e, EXIT_RUNTIME, "out of memory");
    for (size_t k = 0; all && !e->code && k < m->kernels.n; ++k)
        n += gather_one(m, cells, p.n, (int)k, &all[n]);
    FILE *f = n > 0 && !e->code ? report_open(out->dir, "ranks.tsv", path, sizeof path, e) : NULL;
    if (f) {
        qsort(all, (size_t)n, sizeof *all, by_gap);
        fputs("kernel\tmedian ms per rank, alone\tslowest\tover the fastest\tbeside a collective\t"
              "counters that differ\n", f);
        int shown = n < RANKS_ROWS_MAX ? n : RANKS_ROWS_MAX;
        for (int i = 0; i < shown; ++i)
            across_row(f, m, &p, &all[i]);
        out->copies = 1;
        fprintf(out->variables, "ranks_rows = %d\nranks_kernels = %d\nranks_counter_gap_pct = %g\n", shown + 1, n,
                100 * RANKS_COUNTER_GAP);
        report_close(f, path, e);
    }
    free(all);
    free_cells(cells, m->kernels.n * RANKS_MAX_PARTS);
    program_collectives_free(&collectives);
    return e->code;
}

/* ---- Collectives: wait and transfer ---- */

/* Per part: its collectives' time, waiting and transfer, how often it arrived last, and the waits memscope's replays
 * on the last arrival caused. */
static void part_rows(FILE *f, const struct program_collectives *c, size_t shown)
{
    fputs("part\tcollectives\ttime ms\twaiting ms\twaiting %\ttransfer ms\tarrived last\twait from replays ms\n", f);
    for (size_t p = 0; p < shown; ++p) {
        double time = 0, wait = 0, transfer = 0, replayed = 0;
        int last = 0;
        for (size_t i = 0; i < c->n; ++i) {
            const struct collective_arrival *a = collective_at(c, i, p);
            time += a->duration_ns / 1e6;
            wait += a->wait_ns / 1e6;
            transfer += a->transfer_ns / 1e6;
            last += c->last[i] == (int)p;
            if (collective_at(c, i, (size_t)c->last[i])->replays_before > 0)
                replayed += a->wait_ns / 1e6;
        }
        fprintf(f, "%s\t%zu\t%.4g\t%.4g\t%.1f\t%.4g\t%d\t%.4g\n", c->part[p], c->n, time, wait,
                time > 0 ? 100 * wait / time : 0.0, transfer, last, replayed);
    }
}

/* The longest wait of collective i, over its parts. */
static uint64_t longest_wait(const struct program_collectives *c, size_t i)
{
    uint64_t most = 0;
    for (size_t p = 0; p < c->n_parts; ++p)
        most = collective_at(c, i, p)->wait_ns > most ? collective_at(c, i, p)->wait_ns : most;
    return most;
}

static const struct program_collectives *sorting;
static int by_wait(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    uint64_t wa = longest_wait(sorting, a), wb = longest_wait(sorting, b);
    return wa < wb ? 1 : wa > wb ? -1 : (a > b) - (a < b);
}

/* The earliest start of collective i, over its parts. */
static int64_t first_start(const struct program_collectives *c, size_t i)
{
    int64_t first = collective_at(c, i, 0)->start_ns;
    for (size_t p = 1; p < c->n_parts; ++p)
        first = collective_at(c, i, p)->start_ns < first ? collective_at(c, i, p)->start_ns : first;
    return first;
}

/* The part that waited longest in collective i. */
static size_t longest_waiter(const struct program_collectives *c, size_t i)
{
    size_t most = 0;
    for (size_t p = 1; p < c->n_parts; ++p)
        most = collective_at(c, i, p)->wait_ns > collective_at(c, i, most)->wait_ns ? p : most;
    return most;
}

/* A collective: its number and kernel, who arrived last and how long after the first, who waited longest, the
 * transfer after the last arrival (the same on every part: the longest wait's part's), and whether the last arrival
 * had launches replayed by memscope since its collective before. Each part's own: collectives.csv. */
static void collective_row(FILE *f, const struct program_collectives *c, size_t i)
{
    char name[JOB_LABEL_LEN], cell[256];
    size_t waiter = longest_waiter(c, i);
    const struct collective_arrival *last = collective_at(c, i, (size_t)c->last[i]);
    program_kernel_label(c->kernel[i], KERNEL_LABEL_MAX, name, sizeof name);
    fprintf(f, "%zu\t", i);
    report_put_cell(f, name, 0);
    snprintf(cell, sizeof cell, "%s (+%.3g ms)", c->part[c->last[i]], (last->start_ns - first_start(c, i)) / 1e6);
    report_put_cell(f, cell, 0);
    snprintf(cell, sizeof cell, "%s %.3g ms", c->part[waiter], collective_at(c, i, waiter)->wait_ns / 1e6);
    report_put_cell(f, cell, 0);
    snprintf(cell, sizeof cell, "%.3g ms", collective_at(c, i, waiter)->transfer_ns / 1e6);
    report_put_cell(f, cell, 0);
    snprintf(cell, sizeof cell, last->replays_before > 0 ? "yes: %ld launches replayed" : "no", last->replays_before);
    report_put_cell(f, cell, 1);
}

static int write_parts(const struct program_collectives *c, const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = report_open(dir, "collectives-parts.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    part_rows(f, c, c->n_parts < COLLECTIVES_PARTS_SHOWN ? c->n_parts : COLLECTIVES_PARTS_SHOWN);
    return report_close(f, path, e);
}

static int write_collectives(const struct program_collectives *c, struct page_output *out, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    size_t *order = malloc((c->n + 1) * sizeof *order);
    if (!order)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    FILE *f = write_parts(c, out->dir, e) ? NULL : report_open(out->dir, "collectives.tsv", path, sizeof path, e);
    if (!f)
        return free(order), e->code;
    for (size_t i = 0; i < c->n; ++i)
        order[i] = i;
    sorting = c;
    qsort(order, c->n, sizeof *order, by_wait);
    size_t shown = c->n < REPORT_KERNELS_PER_PAGE ? c->n : REPORT_KERNELS_PER_PAGE;
    fputs("no.\tcollective\tlast to arrive (after the first)\tlongest wait\ttransfer\tmemscope's replay made it late\n",
          f);
    for (size_t i = 0; i < shown; ++i)
        collective_row(f, c, order[i]);
    free(order);
    fprintf(out->variables, "collectives_parts = %zu\ncollectives_parts_shown = %zu\n", c->n_parts,
            c->n_parts < COLLECTIVES_PARTS_SHOWN ? c->n_parts : COLLECTIVES_PARTS_SHOWN);
    fprintf(out->variables, "collectives_shown = %zu\ncollectives_matched = %zu\n", shown, c->n);
    report_put_variable(out->variables, "collectives_unmatched", c->unmatched);
    out->copies = 1;
    return report_close(f, path, e);
}

int report_write_collectives(const struct report_model *m, struct page_output *out, struct error *e)
{
    struct program_collectives c;
    out->copies = 0;
    if (!m->program || program_collectives_build(m->r, &c, e))
        return e->code;
    if (c.n > 0)
        write_collectives(&c, out, e);
    program_collectives_free(&c);
    return e->code;
}
