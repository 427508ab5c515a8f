#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ceilings/rates.h"
#include "../common/paths.h"
#include "../profile/metric_catalog.h"
#include "cells.h"
#include "ladder.h"
#include "pages.h"

int report_ladder_order(const struct report_model *m, int order[MAX_VARIANTS])
{
    int n = 0;
    for (int v = 0; v < m->variants; ++v) {
        int step = results_ladder_step(m->r, m->variant[v]), at = n;
        if (step == 0)
            continue;
        while (at > 0 && results_ladder_step(m->r, m->variant[order[at - 1]]) > step) {
            order[at] = order[at - 1];
            --at;
        }
        order[at] = v;
        ++n;
    }
    return n;
}

int report_ladder_steps(const struct report_model *m)
{
    int order[MAX_VARIANTS];
    return report_ladder_order(m, order);
}

struct step_counters {
    double ffma, load_sectors, shared_wavefronts, dram_bytes, l2_hit_pct;
};

static int read_counters(const struct report_model *m, const char *name, int width, struct step_counters *c,
                         struct error *e)
{
    double shared_ld, shared_st;
    const struct results_folder *r = m->r;
    if (results_metric_sum(r, name, width, COLLECTED(FFMA), &c->ffma, e) ||
        results_metric_sum(r, name, width, COLLECTED(GLOBAL_LD_SECTORS), &c->load_sectors, e) ||
        results_metric_sum(r, name, width, COLLECTED(SHARED_LD_WAVEFRONTS), &shared_ld, e) ||
        results_metric_sum(r, name, width, COLLECTED(SHARED_ST_WAVEFRONTS), &shared_st, e) ||
        results_metric_sum(r, name, width, DERIVED(DRAM_BYTES), &c->dram_bytes, e) ||
        results_main_kernel_metric(r, name, width, DERIVED(L2_HIT_RATE_PCT), &c->l2_hit_pct, e))
        return e->code;
    c->shared_wavefronts = shared_ld + shared_st;
    return 0;
}

/* FFMA (thread level) per unit of traffic: how much arithmetic each loaded sector or shared wavefront feeds. A
 * kernel that moves nothing that way (cp.async loads are not LDG) gets a word instead of infinity. */
static void per_unit_cell(char *cell, size_t len, double ffma, double units, const char *none)
{
    if (units == 0)
        snprintf(cell, len, "%s", none);
    else
        report_format_number(cell, len, ffma / units, "%.0f");
}

/* fp32_ceiling: the FP32 ceiling the run measured (NAN: none), which "% FP32 roof" divides the GFLOP/s by, as
 * summary.csv's fp32_roof_pct does; from the two, so that a run older than that column has the figure too. */
static void step_row(FILE *f, const struct report_model *m, int v, double previous_ms, int width, double fp32_ceiling,
                     const struct step_counters *c)
{
    const char *name = m->variant[v];
    int step = results_ladder_step(m->r, name);
    char cell[12][64];
    double median = report_summary_value(m, name, width, SUMMARY_MEDIAN_MS);
    double gflops = report_summary_value(m, name, width, SUMMARY_GFLOPS);
    report_format_number(cell[0], sizeof cell[0], gflops, "%.0f");
    report_format_number(cell[1], sizeof cell[1], 100.0 * report_anchor_ms(m, v, width, 1) / median, "%.1f");
    double roof = ceiling_share_pct(gflops, fp32_ceiling);
    snprintf(cell[2], sizeof cell[2], isnan(roof) ? "-" : "%.1f", roof); /* "-": the run measured no ceiling */
    report_format_number(cell[3], sizeof cell[3], previous_ms / median, "%.2fx");
    if (isnan(previous_ms))
        snprintf(cell[3], sizeof cell[3], "-");
    per_unit_cell(cell[4], sizeof cell[4], c->ffma, c->load_sectors, "no LDG");
    per_unit_cell(cell[5], sizeof cell[5], c->ffma, c->shared_wavefronts, "no LDS");
    report_format_count(cell[6], sizeof cell[6], report_summary_value(m, name, width, SUMMARY_SHARED_CONFLICTS_EXACT));
    double registers = report_summary_value(m, name, width, SUMMARY_REGISTERS_PER_THREAD);
    snprintf(cell[7], sizeof cell[7], isnan(registers) ? "-" : "%.0f", registers);
    report_format_occupancy(cell[8], sizeof cell[8],
                            report_summary_value(m, name, width, SUMMARY_THEORETICAL_OCCUPANCY_PCT),
                            report_summary_value(m, name, width, SUMMARY_ACHIEVED_OCCUPANCY_PCT));
    report_format_number(cell[9], sizeof cell[9], report_summary_value(m, name, width, SUMMARY_ISSUE_SLOTS_PCT), "%.1f");
    report_format_number(cell[10], sizeof cell[10], c->l2_hit_pct, "%.1f");
    report_format_number(cell[11], sizeof cell[11], c->dram_bytes / 1e6, "%.0f");
    fprintf(f, "%d\t%d\t", v + 1, step);
    report_put_cell(f, name, 0);
    const int cells = (int)(sizeof cell / sizeof cell[0]);
    for (int i = 0; i < cells; ++i)
        report_put_cell(f, cell[i], i == cells - 1);
}

static int write_steps(const struct report_model *m, const int *order, int n, const char *dir, struct error *e)
{
    char path[PATH_IN_FOLDER_LEN];
    int width = m->largest_width;
    double fp32_ceiling;
    if (results_environment_number(m->r, ceiling_key(CEILING_FP32), &fp32_ceiling, e))
        return e->code;
    FILE *f = report_open(dir, "ladder.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("0\tstep\tvariant\tGFLOP/s\t% cuBLAS\t% FP32 roof\tx step before\tFFMA/LDG sector\tFFMA/wavefront"
          "\texcess wavefr.\tregs\toccup. % th/ach\tissue %\tL2 hit %\tDRAM MB\n",
          f);
    double previous_ms = NAN;
    for (int i = 0; i < n && !e->code; ++i) {
        struct step_counters c;
        const char *name = m->variant[order[i]];
        if (results_summary_row(m->r, name, width) < 0 || read_counters(m, name, width, &c, e))
            continue;
        step_row(f, m, order[i], previous_ms, width, fp32_ceiling, &c);
        previous_ms = report_passed(m, name, width) ? report_summary_value(m, name, width, SUMMARY_MEDIAN_MS) : NAN;
    }
    return e->code ? (fclose(f), e->code) : report_close(f, path, e);
}

/* An idea longer than a line of the page goes on over rows of its own, broken at spaces. */
#define IDEA_LINE_CHARS 140

/* The length of text's first line: all of it when it fits, else up to its last space that does. */
static int first_line(const char *text)
{
    int n = (int)strlen(text), cut = IDEA_LINE_CHARS;
    if (n <= IDEA_LINE_CHARS)
        return n;
    while (cut > 0 && text[cut] != ' ')
        --cut;
    return cut > 0 ? cut : IDEA_LINE_CHARS;
}

/* The rows of one text: the first with the step's linetype, number and variant (variant NULL: none), the others
 * under it. Returns how many. */
static int put_text_rows(FILE *f, int linetype, int step, const char *variant, const char *text)
{
    char line[IDEA_LINE_CHARS + 1];
    int rows = 0;
    do {
        int n = first_line(text);
        snprintf(line, sizeof line, "%.*s", n, text);
        if (rows++ == 0 && variant) {
            fprintf(f, "%d\t%d\t", linetype, step);
            report_put_cell(f, variant, 0);
        } else {
            fputs("0\t\t\t", f);
        }
        report_put_cell(f, line, 1);
        for (text += n; *text == ' '; ++text)
            ;
    } while (*text);
    return rows;
}

/* A counter moved enough to be said: by this share of its value, or to or from none. */
#define MOVED_FRACTION 0.05

static void moved_counter(char *out, size_t len, const char *name, double before, double after)
{
    char from[32], to[32];
    size_t used = strlen(out);
    if (isnan(before) || isnan(after) || before == after || used >= len)
        return;
    if (before == 0 || after == 0) {
        report_format_count(from, sizeof from, before);
        report_format_count(to, sizeof to, after);
        snprintf(out + used, len - used, "%s%s %s → %s", used ? ", " : "", name, from, to);
    } else if (fabs(after / before - 1) >= MOVED_FRACTION) {
        snprintf(out + used, len - used, "%s%s %+.0f %%", used ? ", " : "", name, 100 * (after / before - 1));
    }
}

/* What the run measured for step v against the step before it: the time, and the counters that moved. */
static void measured_text(char *out, size_t len, const struct report_model *m, int previous, int v, int width,
                          const struct step_counters *before, const struct step_counters *after)
{
    char speed[32], from[32], to[32], moved[256] = "";
    double before_ms = report_summary_value(m, m->variant[previous], width, SUMMARY_MEDIAN_MS);
    double after_ms = report_summary_value(m, m->variant[v], width, SUMMARY_MEDIAN_MS);
    report_format_speed_change(speed, sizeof speed, before_ms, after_ms, 2);
    report_format_significant(from, sizeof from, before_ms, 4);
    report_format_significant(to, sizeof to, after_ms, 4);
    moved_counter(moved, sizeof moved, "global load sectors", before->load_sectors, after->load_sectors);
    moved_counter(moved, sizeof moved, "shared wavefronts", before->shared_wavefronts, after->shared_wavefronts);
    moved_counter(moved, sizeof moved, "exact conflicts",
                  report_summary_value(m, m->variant[previous], width, SUMMARY_SHARED_CONFLICTS_EXACT),
                  report_summary_value(m, m->variant[v], width, SUMMARY_SHARED_CONFLICTS_EXACT));
    moved_counter(moved, sizeof moved, "DRAM bytes", before->dram_bytes, after->dram_bytes);
    snprintf(out, len, "measured against %s: %s (%s → %s ms)%s%s", m->variant[previous], speed, from, to,
             *moved ? "; " : "; the counters within 5 %", moved);
}

/* Each step's idea in the registry's words, and under it what the run measured against the step before at the
 * largest width (a prediction can fail: the idea says what was tried, the measurement what happened). */
static int write_ideas(const struct report_model *m, const int *order, int n, const char *dir, int *rows,
                       struct error *e)
{
    char path[PATH_IN_FOLDER_LEN], measured[512];
    int width = m->largest_width, previous = -1;
    struct step_counters before, after;
    FILE *f = report_open(dir, "ladder-ideas.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("0\tstep\tvariant\tthe idea it adds, and what the run measured\n", f);
    *rows = 0;
    for (int i = 0; i < n && !e->code; ++i) {
        const char *name = m->variant[order[i]];
        *rows += put_text_rows(f, order[i] + 1, results_ladder_step(m->r, name), name,
                               results_description(m->r, name));
        bool measured_here = report_passed(m, name, width) && read_counters(m, name, width, &after, e) == 0;
        if (measured_here && previous >= 0) {
            measured_text(measured, sizeof measured, m, previous, order[i], width, &before, &after);
            *rows += put_text_rows(f, 0, 0, NULL, measured);
        }
        previous = measured_here ? order[i] : -1;
        if (measured_here)
            before = after;
    }
    return e->code ? (fclose(f), e->code) : report_close(f, path, e);
}

/* ladder.tsv; no page for a run without steps of the ladder. */
int report_write_ladder(const struct report_model *m, struct page_output *out, struct error *e)
{
    int order[MAX_VARIANTS];
    int n = report_ladder_order(m, order);
    out->copies = n > 0;
    return n > 0 ? write_steps(m, order, n, out->dir, e) : 0;
}

/* ladder-ideas.tsv, likewise. */
int report_write_ladder_ideas(const struct report_model *m, struct page_output *out, struct error *e)
{
    int order[MAX_VARIANTS], rows;
    int n = report_ladder_order(m, order);
    out->copies = n > 0;
    if (n == 0 || write_ideas(m, order, n, out->dir, &rows, e))
        return e->code;
    fprintf(out->variables, "ladder_idea_rows = %d\n", rows);
    return 0;
}
