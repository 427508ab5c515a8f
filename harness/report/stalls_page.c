/*
 * The stall pages: from stalls.csv (the stalls group's PC samples), at the largest width, each variant's
 * share of samples per stall reason (stalls.tsv: each variant's largest reasons, the reason each step of the FP32
 * ladder moved most, and the run's most common, the rest as "other", kept under each variant's largest named share
 * while the names allow) and
 * its most stalled source line with that line's main reason (stall-lines.tsv). No pages for a run without
 * stalls.csv, or without samples at the largest width.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/palette.h"
#include "../common/paths.h"
#include "../results/schema.h"
#include "cells.h"
#include "../program/labels.h"
#include "ladder.h"
#include "pages.h"

#define MAX_REASONS 64
/* The most reasons charted by name, each in its own colour of the palette; the others are summed as "other". */
#define REPORT_STALL_REASONS_SHOWN 11
#define MAX_STALL_LINES 4096 /* of one variant */

struct stalls_columns {
    int variant, width, file, line, source, reason, samples;
};

/* One variant's samples at the largest width: per reason, and per source line. */
struct variant_stalls {
    double by_reason[MAX_REASONS], total;
    struct {
        const char *file, *source;
        int line;
        double samples, by_reason[MAX_REASONS];
    } lines[MAX_STALL_LINES];
    int n_lines;
};

struct reasons {
    const char *name[MAX_REASONS];
    int n;
};

static int find_columns(const struct csv_table *t, struct stalls_columns *c, struct error *e)
{
    int *at[] = {&c->variant, &c->width, &c->file, &c->line, &c->source, &c->reason, &c->samples};
    static const enum stalls_column ids[] = {STALLS_VARIANT, STALLS_WIDTH,  STALLS_FILE,   STALLS_LINE,
                                             STALLS_SOURCE,  STALLS_REASON, STALLS_SAMPLES};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; ++i)
        if (csv_table_column(t, stalls_csv.columns[ids[i]], at[i], e))
            return e->code;
    return 0;
}

static int reason_index(struct reasons *r, const char *name, const char *path, struct error *e)
{
    for (int i = 0; i < r->n; ++i)
        if (strcmp(r->name[i], name) == 0)
            return i;
    if (r->n == MAX_REASONS)
        return error_set(e, EXIT_USAGE, "%s: more than %d stall reasons", path, MAX_REASONS), -1;
    r->name[r->n] = name;
    return r->n++;
}

static int line_index(struct variant_stalls *v, const char *file, int line, const char *source, const char *path,
                      struct error *e)
{
    for (int i = 0; i < v->n_lines; ++i)
        if (v->lines[i].line == line && strcmp(v->lines[i].file, file) == 0)
            return i;
    if (v->n_lines == MAX_STALL_LINES)
        return error_set(e, EXIT_USAGE, "%s: more than %d stalled lines in one variant", path, MAX_STALL_LINES), -1;
    memset(&v->lines[v->n_lines], 0, sizeof v->lines[0]);
    v->lines[v->n_lines].file = file;
    v->lines[v->n_lines].line = line;
    v->lines[v->n_lines].source = source;
    return v->n_lines++;
}

/* Every kernel of the variant's call at width, summed (a library call may run several). */
static int gather(const struct csv_table *t, const struct stalls_columns *c, const char *variant, int width,
                  struct reasons *r, struct variant_stalls *v, struct error *e)
{
    memset(v, 0, offsetof(struct variant_stalls, lines));
    v->n_lines = 0;
    for (int row = 0; row < t->rows && !e->code; ++row) {
        int w, line, k, l;
        double samples;
        if (strcmp(csv_table_text(t, row, c->variant), variant) != 0 || csv_table_int(t, row, c->width, &w, e) ||
            w != width || csv_table_int(t, row, c->line, &line, e) ||
            csv_table_required_real(t, row, c->samples, &samples, e))
            continue;
        if (samples < 0)
            return error_set(e, EXIT_USAGE, "%s:%d: negative samples", t->path, row + 2);
        if ((k = reason_index(r, csv_table_text(t, row, c->reason), t->path, e)) < 0 ||
            (l = line_index(v, csv_table_text(t, row, c->file), line, csv_table_text(t, row, c->source), t->path,
                            e)) < 0)
            return e->code;
        v->by_reason[k] += samples;
        v->total += samples;
        v->lines[l].by_reason[k] += samples;
        v->lines[l].samples += samples;
    }
    return e->code;
}

/* The reasons in order of their summed shares over the variants, most first. */
static void rank_reasons(const double *share_sum, int n, int *order)
{
    for (int i = 0; i < n; ++i) {
        int at = i;
        for (; at > 0 && share_sum[order[at - 1]] < share_sum[i]; --at)
            order[at] = order[at - 1];
        order[at] = i;
    }
}

/* The reason with the largest share, leaving out one (-1: none). */
static int largest_but(const double *by_reason, int n, int left_out)
{
    int top = -1;
    for (int k = 0; k < n; ++k)
        if (k != left_out && (top < 0 || by_reason[k] > by_reason[top]))
            top = k;
    return top;
}

static int top_reason(const double *by_reason, int n)
{
    return largest_but(by_reason, n, -1);
}

/* Each variant's share of every reason at the largest width (fractions), the rows of the FP32 ladder's steps in
 * their order, and the reasons the chart names. */
struct reason_choice {
    double share[MAX_VARIANTS][MAX_REASONS];
    int variants, reasons;
    int ladder[MAX_VARIANTS], ladder_steps;
    bool named[MAX_REASONS];
    int n_named;
};

static void name_reason(struct reason_choice *c, int k)
{
    if (k >= 0 && !c->named[k] && c->n_named < REPORT_STALL_REASONS_SHOWN) {
        c->named[k] = true;
        ++c->n_named;
    }
}

/* While the variant's unnamed reasons together outweigh its largest named one, its largest unnamed reason. */
static void name_until_other_is_smaller(struct reason_choice *c, const double *share)
{
    while (c->n_named < REPORT_STALL_REASONS_SHOWN) {
        double other = 0, largest_named = 0;
        int largest_unnamed = -1;
        for (int k = 0; k < c->reasons; ++k)
            if (c->named[k])
                largest_named = share[k] > largest_named ? share[k] : largest_named;
            else {
                other += share[k];
                largest_unnamed = largest_unnamed < 0 || share[k] > share[largest_unnamed] ? k : largest_unnamed;
            }
        if (other <= largest_named || largest_unnamed < 0)
            return;
        name_reason(c, largest_unnamed);
    }
}

/* A step of the ladder moved a reason when its share changed by this much of the samples or more. */
#define MOVED_SHARE 0.01

/* The reason whose share moved most from one variant to another, if by MOVED_SHARE or more; -1 if none did. */
static int moved_most(const double *before, const double *after, int n)
{
    int top = -1;
    for (int k = 0; k < n; ++k)
        if (fabs(after[k] - before[k]) >= MOVED_SHARE &&
            (top < 0 || fabs(after[k] - before[k]) > fabs(after[top] - before[top])))
            top = k;
    return top;
}

/* The chart's named reasons, at most REPORT_STALL_REASONS_SHOWN. The run's most common reasons alone would leave a
 * variant whose reasons are rare elsewhere grey (cuBLAS FP64's math_pipe_throttle, 42 % of its samples), and a
 * reason a step of the ladder is about in "other" (icache_fit's no_instructions). So first each variant's largest
 * reason; then, where a variant's unnamed reasons together would outweigh its largest named one, its largest
 * unnamed ones; then at each step of the ladder the reason that moved most from the step before; then each
 * variant's second reason; then the run's most common (order). */
static void choose_reasons(struct reason_choice *c, const int *order)
{
    for (int v = 0; v < c->variants; ++v)
        name_reason(c, top_reason(c->share[v], c->reasons));
    for (int v = 0; v < c->variants; ++v)
        name_until_other_is_smaller(c, c->share[v]);
    for (int i = 1; i < c->ladder_steps; ++i)
        name_reason(c, moved_most(c->share[c->ladder[i - 1]], c->share[c->ladder[i]], c->reasons));
    for (int v = 0; v < c->variants; ++v) {
        int second = largest_but(c->share[v], c->reasons, top_reason(c->share[v], c->reasons));
        if (second >= 0 && c->share[v][second] > 0)
            name_reason(c, second);
    }
    for (int i = 0; i < c->reasons; ++i)
        name_reason(c, order[i]);
}

/* A kernel's or launch's label under its bar or in the table, at most STALL_LABEL_MAX characters: the kernel cut
 * short with "...", a launch's " #K (PATH)" kept whole, which tells the launches of one kernel apart. A variant's, as
 * it is. */
#define STALL_LABEL_MAX 52
static const char *short_label(const char *label, char *out, size_t size)
{
    size_t len = strlen(label);
    const char *job = strstr(label, " #") ? strstr(label, " #") : label + len;
    size_t keep = strlen(job), cut = STALL_LABEL_MAX - keep - 3;
    if (len <= STALL_LABEL_MAX || keep + 3 >= STALL_LABEL_MAX)
        return label;
    while (cut > 0 && (label[cut] & 0xC0) == 0x80) /* never within a character: half a '…' is no text to draw */
        --cut;
    snprintf(out, size, "%.*s...%s", (int)cut, label, job);
    return out;
}

static void chart_row(FILE *f, int linetype, const char *variant, const struct variant_stalls *v, const int *columns,
                      int n_columns, bool all_named)
{
    double other = 100.0;
    fprintf(f, "%d\t", linetype);
    report_put_cell(f, variant, 0);
    for (int i = 0; i < n_columns; ++i) {
        double pct = 100.0 * v->by_reason[columns[i]] / v->total;
        other -= pct;
        report_put_value(f, pct, 0);
    }
    report_put_value(f, !all_named && other > 0 ? other : 0.0, 1);
}

/* A program's source files lie anywhere (absolute paths, deep trees): its table names the file alone. */
/* A program's file by its name alone, its start and end kept where it is long (Inductor names its generated files by
 * a hash: cxtu6hie3ghdjkfnyplpwl2xhvigaippa...py), so that it keeps to its column. */
#define FILE_NAME_KEPT 10
static void short_file_name(const char *name, int line, char *out, size_t size)
{
    size_t n = strlen(name);
    bool ascii = true; /* a name of other characters is left whole, never cut within one */
    for (const char *p = name; *p; ++p)
        ascii = ascii && !(*p & 0x80);
    if (n <= 2 * FILE_NAME_KEPT + 1 || !ascii)
        snprintf(out, size, "%s:%d", name, line);
    else
        snprintf(out, size, "%.*s…%s:%d", FILE_NAME_KEPT, name, name + n - FILE_NAME_KEPT, line);
}

static void line_row(FILE *f, int linetype, const char *variant, const struct variant_stalls *v,
                     const struct reasons *r, bool file_alone)
{
    int top = 0;
    char where[PATH_LEN + 16], text[64], figure[160];
    for (int i = 1; i < v->n_lines; ++i)
        if (v->lines[i].samples > v->lines[top].samples)
            top = i;
    const int k = top_reason(v->lines[top].by_reason, r->n);
    const char *file = v->lines[top].file, *base = strrchr(file, '/');
    if (file[0] && file_alone)
        short_file_name(base ? base + 1 : file, v->lines[top].line, where, sizeof where);
    else if (file[0])
        snprintf(where, sizeof where, "%s:%d", file, v->lines[top].line);
    else
        snprintf(where, sizeof where, "(no line information)");
    snprintf(text, sizeof text, "%.42s%s", v->lines[top].source, strlen(v->lines[top].source) > 42 ? "..." : "");
    snprintf(figure, sizeof figure, "%.0f %% of the samples; %s %.0f %% of the line's", 100.0 * v->lines[top].samples / v->total,
             r->name[k], 100.0 * v->lines[top].by_reason[k] / v->lines[top].samples);
    fprintf(f, "%d\t", linetype);
    report_put_cell(f, variant, 0);
    report_put_cell(f, where, 0);
    report_put_cell(f, text, 0);
    report_put_cell(f, figure, 1);
}

/* The chart's columns: the reasons it names (choose_reasons), in order of their shares summed over the variants;
 * how many in *n. r: every reason of the run at the largest width, none for a run without samples there. */
static int chart_columns(const struct report_model *m, const struct stalls_columns *c, struct reasons *r, int *columns,
                         int *n, struct error *e)
{
    static struct variant_stalls v;
    static struct reason_choice choice;
    double share_sum[MAX_REASONS] = {0};
    int order[MAX_REASONS], row_of[MAX_VARIANTS], ladder[MAX_VARIANTS], steps = report_ladder_order(m, RESULTS_FP32_LADDER, ladder);
    memset(&choice, 0, sizeof choice);
    *n = 0;
    for (int i = 0; i < m->variants && !e->code; ++i) {
        row_of[i] = -1;
        if (gather(&m->stalls, c, m->variant[i], m->largest_width, r, &v, e) == 0 && v.total > 0) {
            for (int k = 0; k < r->n; ++k)
                choice.share[choice.variants][k] = v.by_reason[k] / v.total;
            row_of[i] = choice.variants++;
        }
    }
    for (int i = 0; i < steps; ++i) /* the steps with samples, in order */
        if (row_of[ladder[i]] >= 0)
            choice.ladder[choice.ladder_steps++] = row_of[ladder[i]];
    if (e->code || r->n == 0)
        return e->code;
    choice.reasons = r->n;
    for (int i = 0; i < choice.variants; ++i)
        for (int k = 0; k < r->n; ++k)
            share_sum[k] += choice.share[i][k];
    rank_reasons(share_sum, r->n, order);
    choose_reasons(&choice, order);
    for (int i = 0; i < r->n; ++i)
        if (choice.named[order[i]])
            columns[(*n)++] = order[i];
    return 0;
}

static int write_chart(const struct report_model *m, const struct stalls_columns *c, const struct reasons *r,
                       const int *columns, int n_columns, const char *dir, struct error *e)
{
    static struct variant_stalls v;
    struct reasons seen = *r;
    char path[PATH_IN_FOLDER_LEN], label[JOB_LABEL_LEN];
    FILE *f = report_open(dir, "stalls.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fprintf(f, "linetype\tvariant");
    for (int i = 0; i < n_columns; ++i)
        fprintf(f, "\t%s", r->name[columns[i]]);
    fputs("\tother\n", f);
    for (int i = 0; i < m->variants && !e->code; ++i)
        if (gather(&m->stalls, c, m->variant[i], m->largest_width, &seen, &v, e) == 0 && v.total > 0)
            chart_row(f, i + 1, short_label(m->label[i], label, sizeof label), &v, columns, n_columns,
                      n_columns == r->n);
    return e->code ? (fclose(f), e->code) : report_close(f, path, e);
}

/* stall_reasons: the chart's columns by name, in order, "other" last, which stalls.gp plots one by one. */
static void write_reasons(FILE *f, const char *const *names, const int *columns, int n_columns)
{
    fputs("stall_reasons = '", f);
    for (int i = 0; i < n_columns; ++i) {
        report_put_quoted(f, names[columns[i]]);
        fputc(' ', f);
    }
    fputs("other'\n", f);
}

/* stalls.tsv: each variant's share of the samples by reason; no page for a run without samples at the largest
 * width. */
int report_write_stalls(const struct report_model *m, struct page_output *out, struct error *e)
{
    struct stalls_columns c;
    struct reasons r = {0};
    int columns[MAX_REASONS], n_columns;
    out->copies = 0;
    if (!m->has_stalls || find_columns(&m->stalls, &c, e) || chart_columns(m, &c, &r, columns, &n_columns, e) ||
        r.n == 0 || write_chart(m, &c, &r, columns, n_columns, out->dir, e))
        return e->code;
    out->copies = 1;
    write_reasons(out->variables, r.name, columns, n_columns);
    palette_write_colours(out->variables, "stall_colours", n_columns);
    return 0;
}

static FILE *open_lines(const struct report_model *m, const char *dir, char *path, size_t len, struct error *e)
{
    char heading[64];
    FILE *f = report_open(dir, "stall-lines.tsv", path, len, e);
    if (m->program)
        snprintf(heading, sizeof heading, "kernel");
    else
        snprintf(heading, sizeof heading, "variant (W = %d)", m->largest_width);
    if (f)
        fprintf(f, "0\t%s\tmost stalled line\tsource\tsamples there, and their main reason\n", heading);
    return f;
}

/* stall-lines.tsv: each variant's most stalled line; no page for a run without samples at the largest width. */
int report_write_stall_lines(const struct report_model *m, struct page_output *out, struct error *e)
{
    static struct variant_stalls v;
    struct stalls_columns c;
    struct reasons r = {0};
    char path[PATH_IN_FOLDER_LEN], label[JOB_LABEL_LEN];
    FILE *f = NULL;
    int rows = 0;
    out->copies = 0;
    if (!m->has_stalls || find_columns(&m->stalls, &c, e))
        return e->code;
    for (int i = 0; i < m->variants && !e->code; ++i) {
        if (gather(&m->stalls, &c, m->variant[i], m->largest_width, &r, &v, e) || v.total == 0)
            continue;
        if (!f && !(f = open_lines(m, out->dir, path, sizeof path, e)))
            return e->code;
        line_row(f, i + 1, short_label(m->label[i], label, sizeof label), &v, &r, m->program);
        ++rows;
    }
    if (!f || e->code)
        return f ? (fclose(f), e->code) : e->code;
    out->copies = 1;
    fprintf(out->variables, "stall_rows = %d\n", rows);
    return report_close(f, path, e);
}
