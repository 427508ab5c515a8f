/*
 * The hot-lines pages: for each variant at the run's largest width, from lines.csv
 * (the source group's counts per source line), the line with the most bank
 * conflicts, the line with the most global sectors beyond the ideal, and the
 * line that executed the most instructions, each with its text and what it
 * cost, so that the report points at the code. A kernel without line
 * information (cuBLAS's, PyTorch's own) has no row: its caption counts them.
 * The columns are laid out from the widths their cells take.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/paths.h"
#include "../program/labels.h"
#include "../results/schema.h"
#include "cells.h"
#include "pages.h"

#define MAX_LINES 4096 /* of one variant */
#define HOT_LINES_PER_PAGE 28
#define KERNEL_CELL_MAX 48 /* characters of a program's kernel label: summary.csv has it whole */
#define WHERE_CELL_MAX 44  /* characters of file:line; lines.csv has the whole path */

/* One source line of one variant's kernel, its line metrics gathered from lines.csv's rows. */
struct hot_line {
    const char *kernel, *file, *text;
    int line;
    double inst, shared_inst, shared_excess, shared_wavefronts, shared_ideal;
    double global_requests, global_excess, global_sectors, global_ideal;
};

struct lines_columns {
    int variant, width, kernel, file, line, source, metric, value;
};

static int find_columns(const struct csv_table *t, struct lines_columns *c, struct error *e)
{
    int *at[] = {&c->variant, &c->width, &c->kernel, &c->file, &c->line, &c->source, &c->metric, &c->value};
    static const enum lines_column ids[] = {LINES_VARIANT, LINES_WIDTH, LINES_KERNEL, LINES_FILE,
                                            LINES_LINE,    LINES_SOURCE, LINES_METRIC, LINES_VALUE};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; ++i)
        if (csv_table_column(t, lines_csv.columns[ids[i]], at[i], e))
            return e->code;
    return 0;
}

static void add_metric(struct hot_line *h, const char *metric, double value)
{
    static const char *const names[] = {"inst_executed",         "shared_instructions",      "shared_excess_wavefronts",
                                        "shared_wavefronts",      "shared_wavefronts_ideal", "global_ld_requests",
                                        "global_st_requests",     "global_excess_sectors",    "global_sectors",
                                        "global_sectors_ideal"};
    double *slots[] = {&h->inst,           &h->shared_inst,     &h->shared_excess, &h->shared_wavefronts,
                       &h->shared_ideal,   &h->global_requests, &h->global_requests, &h->global_excess,
                       &h->global_sectors, &h->global_ideal};
    for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
        if (strcmp(metric, names[i]) == 0)
            *slots[i] += value;
}

/* The variant's lines at width, one entry per kernel, file and line. */
static int gather(const struct csv_table *t, const struct lines_columns *c, const char *variant, int width,
                  struct hot_line *lines, int *n, struct error *e)
{
    *n = 0;
    for (int row = 0; row < t->rows && !e->code; ++row) {
        int w, line, k;
        double value;
        if (strcmp(csv_table_text(t, row, c->variant), variant) != 0 || csv_table_int(t, row, c->width, &w, e) ||
            w != width || csv_table_int(t, row, c->line, &line, e) ||
            csv_table_required_real(t, row, c->value, &value, e))
            continue;
        const char *kernel = csv_table_text(t, row, c->kernel), *file = csv_table_text(t, row, c->file);
        for (k = 0; k < *n; ++k)
            if (lines[k].line == line && strcmp(lines[k].file, file) == 0 && strcmp(lines[k].kernel, kernel) == 0)
                break;
        if (k == *n) {
            if (*n == MAX_LINES)
                return error_set(e, EXIT_USAGE, "%s: more than %d lines for %s", t->path, MAX_LINES, variant);
            lines[(*n)++] = (struct hot_line){.kernel = kernel, .file = file,
                                              .text = csv_table_text(t, row, c->source), .line = line};
        }
        add_metric(&lines[k], csv_table_text(t, row, c->metric), value);
    }
    return e->code;
}

static const struct hot_line *most(const struct hot_line *lines, int n, size_t offset)
{
    const struct hot_line *best = NULL;
    for (int i = 0; i < n; ++i) {
        double v = *(const double *)((const char *)&lines[i] + offset);
        if (v > 0 && (!best || v > *(const double *)((const char *)best + offset)))
            best = &lines[i];
    }
    return best;
}

/* file:line as lines.csv holds it where that fits its cell, else the file's last component, cut in its middle
 * where even that does not fit (Inductor names its generated files by a 52-character hash). */
static void format_where(char *out, size_t size, const struct hot_line *h)
{
    char file[PATH_LEN + 8];
    if (!h->file[0]) {
        snprintf(out, size, "(no line information)");
        return;
    }
    snprintf(out, size, "%s:%d", h->file, h->line);
    if (strlen(out) <= WHERE_CELL_MAX)
        return;
    const char *slash = strrchr(h->file, '/');
    snprintf(file, sizeof file, "%s", slash ? slash + 1 : h->file);
    program_label_shorten(file, WHERE_CELL_MAX - 8); /* room for ":" and the line */
    snprintf(out, size, "%s:%d", file, h->line);
}

static void put_row(FILE *f, int linetype, const char *kernel, const char *what, const struct hot_line *h,
                    const char *figure)
{
    char where[PATH_LEN + 24], text[64];
    format_where(where, sizeof where, h);
    snprintf(text, sizeof text, "%.42s%s", h->text, strlen(h->text) > 42 ? "..." : "");
    fprintf(f, "%d\t", linetype);
    report_put_cell(f, kernel, 0);
    report_put_cell(f, what, 0);
    report_put_cell(f, where, 0);
    report_put_cell(f, text, 0);
    report_put_cell(f, figure, 1);
}

/* Up to three rows for a variant, named kernel; returns how many it wrote. */
static int variant_rows(FILE *f, int linetype, const char *kernel, const struct hot_line *lines, int n)
{
    char figure[128];
    int rows = 0;
    double total = 0;
    const struct hot_line *h;
    for (int i = 0; i < n; ++i)
        total += lines[i].inst;
    if ((h = most(lines, n, offsetof(struct hot_line, shared_excess)))) {
        if (h->shared_inst > 0)
            snprintf(figure, sizeof figure, "%.1f wavefronts per instr., ideal %.1f",
                     h->shared_wavefronts / h->shared_inst, h->shared_ideal / h->shared_inst);
        else { /* LDSM or LDGSTS: wavefronts without an LDS or STS to count them by */
            char count[32];
            report_format_count(count, sizeof count, h->shared_excess);
            snprintf(figure, sizeof figure, "%s wavefronts beyond the ideal", count);
        }
        put_row(f, linetype, kernel, "most bank conflicts", h, figure), ++rows;
    }
    if ((h = most(lines, n, offsetof(struct hot_line, global_excess)))) {
        if (h->global_requests > 0)
            snprintf(figure, sizeof figure, "%.1f sectors per request, ideal %.1f",
                     h->global_sectors / h->global_requests, h->global_ideal / h->global_requests);
        else { /* LDGSTS: sectors without an LDG or STG to count them by */
            char count[32];
            report_format_count(count, sizeof count, h->global_excess);
            snprintf(figure, sizeof figure, "%s sectors beyond the ideal", count);
        }
        put_row(f, linetype, kernel, "most wasted sectors", h, figure), ++rows;
    }
    if ((h = most(lines, n, offsetof(struct hot_line, inst)))) {
        snprintf(figure, sizeof figure, "%.0f %% of the kernel's instructions", 100.0 * h->inst / total);
        put_row(f, linetype, kernel, "most instructions", h, figure), ++rows;
    }
    return rows;
}

static FILE *open_page(const struct report_model *m, const char *dir, int page, char *path, size_t len,
                       struct error *e)
{
    char name[64];
    snprintf(name, sizeof name, "hot-lines-%d.tsv", page);
    FILE *f = report_open(dir, name, path, len, e);
    if (f && m->program) /* a program's kernels, each by its launch the source group counted */
        fprintf(f, "0\tkernel\twhat\twhere\tsource\tmeasured on the line\n");
    else if (f)
        fprintf(f, "0\tvariant (W = %d)\twhat\twhere\tsource\tmeasured on the line\n", m->largest_width);
    return f;
}

/* A page's columns from the widths its cells take: hot_lines_<page>_table_x and _font_size. */
static int close_page(FILE *f, const char *path, int page, FILE *variables, struct error *e)
{
    char name[64];
    if (report_close(f, path, e))
        return e->code;
    snprintf(name, sizeof name, "hot_lines_%d_table", page);
    return report_table_layout(variables, name, path, 2, 5, 0.02, 1.0, 11.0, 5.0, e);
}

/* A variant's name in the first column: a program's kernel by a label of its own width, its NVTX range or ordinal
 * after it (Inductor's kernels differ at their end, which a cut of the whole name would lose). */
static void kernel_cell(const struct report_model *m, int v, char *out, size_t size)
{
    if (m->program)
        program_kernel_name(&m->kernels, &m->kernels.at[m->kernel_of[v]], KERNEL_CELL_MAX, out, size);
    else
        snprintf(out, size, "%s", m->label[v]);
}

static int placed(const struct hot_line *lines, int n)
{
    for (int i = 0; i < n; ++i)
        if (lines[i].file[0])
            return 1;
    return 0;
}

static int write_pages(const struct report_model *m, const struct csv_table *t, const struct lines_columns *c,
                       struct page_output *out, int *pages, int *unplaced, struct error *e)
{
    static struct hot_line lines[MAX_LINES];
    char path[PATH_IN_FOLDER_LEN], kernel[JOB_LABEL_LEN];
    int width = m->largest_width, rows = 0, n;
    FILE *f = NULL;
    for (int v = 0; v < m->variants && !e->code; ++v) {
        if (gather(t, c, m->variant[v], width, lines, &n, e) || n == 0)
            continue;
        if (!placed(lines, n)) {
            ++*unplaced;
            continue;
        }
        if (!f || rows + 3 > HOT_LINES_PER_PAGE) {
            if (f && close_page(f, path, *pages, out->variables, e))
                return e->code;
            if (!(f = open_page(m, out->dir, ++*pages, path, sizeof path, e)))
                return e->code;
            rows = 0;
        }
        kernel_cell(m, v, kernel, sizeof kernel);
        rows += variant_rows(f, v + 1, kernel, lines, n);
    }
    return f ? (e->code ? (fclose(f), e->code) : close_page(f, path, *pages, out->variables, e)) : e->code;
}

/* hot-lines-<page>.tsv from the results folder's lines.csv; no page when the run has no lines.csv, or none at the
 * largest width (a page at another width would not say what every other page says), or none placed on a line. */
int report_write_hot_lines(const struct report_model *m, struct page_output *out, struct error *e)
{
    struct lines_columns c;
    int pages = 0, unplaced = 0;
    out->copies = 0;
    if (!m->has_lines || find_columns(&m->lines, &c, e) || write_pages(m, &m->lines, &c, out, &pages, &unplaced, e) ||
        pages == 0)
        return e->code;
    fprintf(out->variables, "hot_line_pages = %d\nhot_lines_unplaced = %d\n", pages, unplaced);
    return report_page_numbered(out, "hot_lines_page", pages, e);
}
