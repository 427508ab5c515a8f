/*
 * The timeline page: where a traced run's wall time went (memscope --trace writes timeline.csv, its NVTX ranges).
 * One bar per variant, its jobs at every size summed, in segments by phase (setup, the check, warm-up and timed
 * runs); one bar for the run's own phases (the metric passes, source counters, stall sampling and ceilings, which
 * serve every variant of a size at once); one for the run's time in no range. The bars add up to the run's wall
 * time. timeline.tsv holds them, timeline-notes.gp the page's title, colours and the largest stretches in no range.
 * No page for a run without timeline.csv, or with an empty one.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/paths.h"
#include "../results/schema.h"
#include "cells.h"
#include "pages.h"

/* The bars' segments: the NVTX phases (named in harness/gpu/nvtx.c) in groups, each in the colour its first phase
 * has there, as Nsight Systems shows it. The last segment takes every other range and the time in none. */
static const struct segment {
    const char *title, *colour;
    const char *phases[4];
} segments[] = {
    {"setup (allocate, copy in, release)", "#9e9e9e", {"allocate", "copy in", "release"}},
    {"check (reference, verify, copy out)", "#00acc1", {"reference", "verify", "copy out"}},
    {"warm-up and timed runs", "#e53935", {"warm-up", "timed runs"}},
    {"metric passes", "#fb8c00", {"metric passes"}},
    {"source counters", "#00897b", {"source counters"}},
    {"stall sampling", "#d81b60", {"stall sampling"}},
    {"ceilings", "#5e35b1", {"ceilings"}},
    {"in no phase", "#cfcfcf", {NULL}},
};
enum { SEGMENTS = sizeof segments / sizeof segments[0], NO_PHASE = SEGMENTS - 1 };
/* The stretches of the run in no range that the caption names, the longest first. */
enum { GAPS_NAMED = 3 };

struct bar {
    char label[128];
    double ms[SEGMENTS];
};

struct gap {
    double ms;
    char before[160];
};

/* A row of timeline.csv. */
struct range {
    const char *name, *job;
    int width, depth; /* width: a square's; 0 for a rectangle and outside a job's size */
    double start_ms, duration_ms;
};

struct timeline {
    struct bar variant[MAX_VARIANTS], own, none; /* own: the run's phases; none: the run's time in no range */
    int variants;
    double run_start_ms, run_ms; /* from the first range of depth 0 to the end of the last */
    struct gap gap[GAPS_NAMED];
};

static int segment_of(const char *phase)
{
    for (int s = 0; s < NO_PHASE; ++s)
        for (int p = 0; segments[s].phases[p]; ++p)
            if (strcmp(segments[s].phases[p], phase) == 0)
                return s;
    return NO_PHASE;
}

static int read_range(const struct csv_table *t, const int *column, int row, struct range *r, struct error *e)
{
    r->name = csv_table_text(t, row, column[TIMELINE_RANGE]);
    r->job = csv_table_text(t, row, column[TIMELINE_JOB]);
    /* A negative duration or depth never comes here: the folder reader refuses it (results/value_limits.h). */
    if (csv_table_int(t, row, column[TIMELINE_WIDTH], &r->width, e) ||
        csv_table_int(t, row, column[TIMELINE_DEPTH], &r->depth, e) ||
        csv_table_required_real(t, row, column[TIMELINE_START_MS], &r->start_ms, e) ||
        csv_table_required_real(t, row, column[TIMELINE_DURATION_MS], &r->duration_ms, e))
        return e->code;
    return 0;
}

/* Whether a word names a job's size as its range does (product_shape_label): "W=4096", "8192x3072x1024". */
static bool is_size_label(const char *word)
{
    struct product_shape s;
    if (strncmp(word, "W=", 2) == 0)
        return product_shape_parse(word + 2, INT_MAX, &s) == 0;
    return strchr(word, 'x') && product_shape_parse(word, INT_MAX, &s) == 0;
}

/* The bar of a job's variant: "<variant> W=<width>" or "<variant> <rows>x<cols>x<inner>" less its size, so that a
 * variant's jobs at every size share one bar. */
static int variant_bar(struct timeline *tl, const struct range *r, const char *path, struct bar **bar,
                       struct error *e)
{
    char name[sizeof tl->variant[0].label];
    const char *last_space = strrchr(r->job, ' ');
    size_t n = last_space && is_size_label(last_space + 1) ? (size_t)(last_space - r->job) : strlen(r->job);
    snprintf(name, sizeof name, "%.*s", (int)n, r->job);
    for (int v = 0; v < tl->variants; ++v)
        if (strcmp(tl->variant[v].label, name) == 0)
            return *bar = &tl->variant[v], 0;
    if (tl->variants == MAX_VARIANTS)
        return error_set(e, EXIT_USAGE, "%s: jobs of more than %d variants", path, MAX_VARIANTS);
    *bar = &tl->variant[tl->variants++];
    memset(*bar, 0, sizeof **bar);
    snprintf((*bar)->label, sizeof (*bar)->label, "%s", name);
    return 0;
}

/* The ranges that share out the run's time: its jobs and its own phases, in the run's range (depth 1) or, as the
 * ceilings measured before it, beside it (depth 0). The run's range itself only holds them. */
static int outermost(const struct range *r)
{
    return r->depth == 1 || (r->depth == 0 && segment_of(r->name) != NO_PHASE);
}

/* A job's range is its variant's time, in no phase until its phases (one level deeper) take their share; the
 * run's own phases sit beside the jobs. Deeper ranges lie inside a phase, already counted. */
static int add_range(struct timeline *tl, const struct range *r, const char *path, struct error *e)
{
    struct bar *bar = &tl->own;
    if (r->job[0] && r->depth <= 2 && variant_bar(tl, r, path, &bar, e))
        return e->code;
    if (r->depth == 1 && r->job[0])
        bar->ms[NO_PHASE] += r->duration_ms;
    else if (outermost(r) || (r->depth == 2 && r->job[0])) {
        bar->ms[segment_of(r->name)] += r->duration_ms;
        bar->ms[NO_PHASE] -= r->job[0] ? r->duration_ms : 0;
    }
    return 0;
}

/* The run's time reaches over every range of depth 0. */
static void widen_run(struct timeline *tl, const struct range *r, int first)
{
    double end = first ? r->start_ms + r->duration_ms : tl->run_start_ms + tl->run_ms;
    if (r->start_ms + r->duration_ms > end)
        end = r->start_ms + r->duration_ms;
    if (first || r->start_ms < tl->run_start_ms)
        tl->run_start_ms = r->start_ms;
    tl->run_ms = end - tl->run_start_ms;
}

/* Keeps the GAPS_NAMED longest stretches in no range, the longest first. */
static void note_gap(struct timeline *tl, double ms, const struct range *next)
{
    int at = GAPS_NAMED;
    while (at > 0 && tl->gap[at - 1].ms < ms)
        --at;
    if (at == GAPS_NAMED || ms <= 0)
        return;
    memmove(&tl->gap[at + 1], &tl->gap[at], (GAPS_NAMED - at - 1) * sizeof tl->gap[0]);
    tl->gap[at].ms = ms;
    if (!next)
        snprintf(tl->gap[at].before, sizeof tl->gap[at].before, "after the last range");
    else if (next->job[0] || next->width == 0)
        snprintf(tl->gap[at].before, sizeof tl->gap[at].before, "before %s", next->name);
    else
        snprintf(tl->gap[at].before, sizeof tl->gap[at].before, "before %s (W = %d)", next->name, next->width);
}

static int by_start(const void *a, const void *b)
{
    const struct range *x = a, *y = b;
    return (x->start_ms > y->start_ms) - (x->start_ms < y->start_ms);
}

/* The run's time in no range: what its outermost ranges (sorted by start) leave of it. */
static void find_gaps(struct timeline *tl, struct range *outer, int n)
{
    double at = tl->run_start_ms, covered = 0;
    qsort(outer, (size_t)n, sizeof *outer, by_start);
    for (int i = 0; i < n; ++i) {
        note_gap(tl, outer[i].start_ms - at, &outer[i]);
        covered += outer[i].duration_ms;
        if (outer[i].start_ms + outer[i].duration_ms > at)
            at = outer[i].start_ms + outer[i].duration_ms;
    }
    note_gap(tl, tl->run_start_ms + tl->run_ms - at, NULL);
    snprintf(tl->none.label, sizeof tl->none.label, "in no range");
    tl->none.ms[NO_PHASE] = tl->run_ms - covered;
}

static int build(const struct csv_table *t, struct timeline *tl, struct error *e)
{
    int column[TIMELINE_COLUMNS], tops = 0, n_outer = 0;
    struct range r;
    struct range *outer = malloc(sizeof *outer * (size_t)t->rows);
    if (!outer)
        return error_set(e, EXIT_RUNTIME, "out of memory reading %s", t->path);
    snprintf(tl->own.label, sizeof tl->own.label, "the run's own phases");
    for (int c = 0; c < TIMELINE_COLUMNS && !e->code; ++c)
        schema_column(t, &timeline_csv, c, &column[c], e);
    for (int row = 0; row < t->rows && !e->code; ++row) {
        if (read_range(t, column, row, &r, e) || add_range(tl, &r, t->path, e))
            break;
        if (r.depth == 0)
            widen_run(tl, &r, tops++ == 0);
        if (outermost(&r))
            outer[n_outer++] = r;
    }
    if (!e->code && tops == 0)
        error_set(e, EXIT_USAGE, "%s: no range of depth 0, where a run has its own (memscope run)", t->path);
    if (!e->code)
        find_gaps(tl, outer, n_outer);
    free(outer);
    return e->code;
}

/* "6.38 s", "198 ms". */
static void format_ms(char *out, size_t size, double ms)
{
    if (ms >= 1000)
        snprintf(out, size, "%.2f s", ms / 1000);
    else
        snprintf(out, size, "%.0f ms", ms);
}

static double total_ms(const struct bar *b)
{
    double sum = 0;
    for (int s = 0; s < SEGMENTS; ++s)
        sum += b->ms[s];
    return sum;
}

static void bar_row(FILE *f, const struct bar *b, const int *shown, int n_shown, double run_ms)
{
    char label[64], time[32];
    report_put_cell(f, b->label, 0);
    for (int i = 0; i < n_shown; ++i)
        report_put_value(f, b->ms[shown[i]] > 0 ? b->ms[shown[i]] / 1000 : 0.0, 0);
    format_ms(time, sizeof time, total_ms(b));
    snprintf(label, sizeof label, "%s, %.1f %%", time, 100 * total_ms(b) / run_ms);
    report_put_value(f, total_ms(b) / 1000, 0);
    report_put_cell(f, label, 1);
}

/* The bars with time in them, and the segments with time in some bar (the run may have no metric passes). */
static int write_table(const struct timeline *tl, const struct bar **bars, int n_bars, const int *shown, int n_shown,
                       const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = report_open(dir, "timeline.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("bar", f);
    for (int i = 0; i < n_shown; ++i)
        fprintf(f, "\t%s", segments[shown[i]].title);
    fputs("\ttotal_s\tlabel\n", f);
    for (int b = 0; b < n_bars; ++b)
        bar_row(f, bars[b], shown, n_shown, tl->run_ms);
    return report_close(f, path, e);
}

static int write_notes(const struct timeline *tl, const struct bar **bars, int n_bars, const int *shown, int n_shown,
                       const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)], text[640], time[32];
    double highest = 0;
    FILE *f = report_open(dir, "timeline-notes.gp", path, sizeof path, e);
    if (!f)
        return e->code;
    format_ms(time, sizeof time, tl->run_ms);
    snprintf(text, sizeof text, "Where the run's %s went", time);
    report_put_variable(f, "timeline_title", text);
    int used = snprintf(text, sizeof text, "Longest in no range:");
    for (int g = 0; g < GAPS_NAMED && tl->gap[g].ms > 0; ++g) {
        format_ms(time, sizeof time, tl->gap[g].ms);
        used += snprintf(text + used, sizeof text - (size_t)used, "%s %s %s", g ? "," : "", time, tl->gap[g].before);
    }
    snprintf(text + used, sizeof text - (size_t)used, ".");
    report_put_variable(f, "timeline_gaps", tl->gap[0].ms > 0 ? text : "The run has no time in no range.");
    /* The segments drawn, by their columns' names (each in double quotes, which gnuplot's word() keeps together: a
     * name has spaces), each in its phase's colour. */
    fputs("timeline_segments = '", f);
    for (int i = 0; i < n_shown; ++i) {
        fputs(i ? " \"" : "\"", f);
        report_put_quoted(f, segments[shown[i]].title);
        fputc('"', f);
    }
    fputs("'\ntimeline_colours = \"", f);
    for (int i = 0; i < n_shown; ++i)
        fprintf(f, "%s%s", i ? " " : "", segments[shown[i]].colour);
    fputs("\"\n", f);
    for (int b = 0; b < n_bars; ++b)
        highest = total_ms(bars[b]) > highest ? total_ms(bars[b]) : highest;
    report_put_number(f, "timeline_highest_s", highest / 1000);
    return report_close(f, path, e);
}

/* A bar with no time in it (a run without profiling has no phases of its own) is left out. */
static void keep_if_timed(const struct bar **bars, int *n, const struct bar *b)
{
    if (total_ms(b) > 0)
        bars[(*n)++] = b;
}

static int write_page(const struct timeline *tl, const char *dir, int *n_bars, struct error *e)
{
    const struct bar *bars[MAX_VARIANTS + 2];
    int shown[SEGMENTS], n_shown = 0;
    *n_bars = 0;
    for (int v = 0; v < tl->variants; ++v)
        keep_if_timed(bars, n_bars, &tl->variant[v]);
    keep_if_timed(bars, n_bars, &tl->own);
    keep_if_timed(bars, n_bars, &tl->none);
    for (int s = 0; s < SEGMENTS; ++s) {
        int used = 0;
        for (int b = 0; b < *n_bars; ++b)
            used |= bars[b]->ms[s] > 0;
        if (used)
            shown[n_shown++] = s;
    }
    if (write_table(tl, bars, *n_bars, shown, n_shown, dir, e) == 0)
        write_notes(tl, bars, *n_bars, shown, n_shown, dir, e);
    return e->code;
}

int report_write_timeline(const struct report_model *m, struct page_output *out, struct error *e)
{
    struct csv_table t;
    static struct timeline tl;
    int present, n_bars = 0;
    out->copies = 0;
    if (results_read_optional(m->r->dir, &timeline_csv, &t, &present, e) || !present)
        return e->code; /* on failure the reader freed it */
    memset(&tl, 0, sizeof tl);
    if (t.rows > 0 && build(&t, &tl, e) == 0 && write_page(&tl, out->dir, &n_bars, e) == 0)
        out->copies = n_bars > 0;
    csv_table_free(&t);
    return e->code;
}
