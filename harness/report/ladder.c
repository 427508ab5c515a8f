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

int report_ladder_order(const struct report_model *m, enum results_ladder ladder, int order[MAX_VARIANTS])
{
    int n = 0;
    for (int v = 0; v < m->variants; ++v) {
        int step = results_ladder_step(m->r, ladder, m->variant[v]), at = n;
        if (step == 0)
            continue;
        while (at > 0 && results_ladder_step(m->r, ladder, m->variant[order[at - 1]]) > step) {
            order[at] = order[at - 1];
            --at;
        }
        order[at] = v;
        ++n;
    }
    return n;
}

int report_ladder_steps(const struct report_model *m, enum results_ladder ladder)
{
    int order[MAX_VARIANTS];
    return report_ladder_order(m, ladder, order);
}

int report_ladder_fastest(const struct report_model *m, enum results_ladder ladder, struct product_shape size)
{
    const char *library = report_ladder_of(ladder).reference;
    int best = -1;
    for (int v = 0; v < m->variants; ++v) {
        const char *name = m->variant[v];
        if (results_ladder_step(m->r, ladder, name) > 0 && strcmp(name, library) != 0 &&
            report_passed_at(m, name, size) &&
            (best < 0 || report_value_at(m, name, size, SUMMARY_MEDIAN_MS) <
                             report_value_at(m, m->variant[best], size, SUMMARY_MEDIAN_MS)))
            best = v;
    }
    return best;
}

struct step_counters {
    double ffma, load_sectors, shared_wavefronts, ldsm_instructions, ldsm_wavefronts, dram_bytes, l2_hit_pct;
    double tensor_pipe_pct;
};

static int read_counters(const struct report_model *m, const char *name, int width, struct step_counters *c,
                         struct error *e)
{
    double shared_ld, shared_st;
    const struct results_folder *r = m->r;
    const struct product_shape size = product_shape_square(width);
    if (results_metric_sum(r, name, size, COLLECTED(FFMA), &c->ffma, e) ||
        results_metric_sum(r, name, size, COLLECTED(GLOBAL_LD_SECTORS), &c->load_sectors, e) ||
        results_metric_sum(r, name, size, COLLECTED(SHARED_LD_WAVEFRONTS), &shared_ld, e) ||
        results_metric_sum(r, name, size, COLLECTED(SHARED_ST_WAVEFRONTS), &shared_st, e) ||
        results_metric_sum(r, name, size, COLLECTED(LDSM_INSTRUCTIONS), &c->ldsm_instructions, e) ||
        results_metric_sum(r, name, size, COLLECTED(LDSM_WAVEFRONTS), &c->ldsm_wavefronts, e) ||
        results_metric_sum(r, name, size, DERIVED(DRAM_BYTES), &c->dram_bytes, e) ||
        results_main_kernel_metric(r, name, size, DERIVED(L2_HIT_RATE_PCT), &c->l2_hit_pct, e))
        return e->code;
    c->shared_wavefronts = shared_ld + shared_st;
    c->tensor_pipe_pct = report_summary_value(m, name, width, SUMMARY_TENSOR_PIPE_PCT);
    return 0;
}

/* A count per unit of another: how much work each unit of traffic feeds, or an LDSM's wavefronts. A kernel that
 * moves nothing that way (cp.async loads are not LDG; TMA feeds wgmma without LDSM) gets a word instead of
 * infinity. */
static void per_unit_cell(char *cell, size_t len, double count, double units, const char *none, const char *format)
{
    if (units == 0)
        snprintf(cell, len, "%s", none);
    else
        report_format_number(cell, len, count / units, format);
}

/* The ladder's own columns: what its steps trade. The FP32 ladder's, FFMA (thread level) per sector of global
 * loads and per shared wavefront: how much arithmetic each unit of traffic feeds; the tensor ladder's, the tensor
 * pipe's busy share and the wavefronts an ldmatrix takes (4 without bank conflicts). */
#define LADDER_OWN_CELLS 2
static void fp32_cells(char cell[LADDER_OWN_CELLS][64], const struct step_counters *c)
{
    per_unit_cell(cell[0], sizeof cell[0], c->ffma, c->load_sectors, "no LDG", "%.0f");
    per_unit_cell(cell[1], sizeof cell[1], c->ffma, c->shared_wavefronts, "no LDS", "%.0f");
}

static void tensor_cells(char cell[LADDER_OWN_CELLS][64], const struct step_counters *c)
{
    report_format_number(cell[0], sizeof cell[0], c->tensor_pipe_pct, "%.1f");
    per_unit_cell(cell[1], sizeof cell[1], c->ldsm_wavefronts, c->ldsm_instructions, "no LDSM", "%.1f");
}

/* What sets the ladders apart: the name, precision and library's name; their pages' files, the header of its steps
 * (after step and variant), the unit of its speeds (GFLOP/s or TFLOP/s) and the roof they are a share of, its own
 * columns, and whether its ideas say what the tensor pipe did (on the FP32 ladder it is idle, whatever rounding
 * says). */
static const struct ladder_pages {
    const char *name, *precision, *reference_label;
    const char *steps_file, *ideas_file, *idea_rows_variable, *table_variable, *header;
    double gflops_per_unit;
    enum ceiling roof;
    void (*own_cells)(char cell[LADDER_OWN_CELLS][64], const struct step_counters *c);
    bool says_tensor_pipe;
} pages[RESULTS_LADDERS] = {
    [RESULTS_FP32_LADDER] = {"FP32 ladder", "fp32", "cuBLAS", "ladder.tsv", "ladder-ideas.tsv", "ladder_idea_rows",
                             "ladder_table",
                             "GFLOP/s\t% cuBLAS\t% FP32 roof\tx step before\tFFMA/LDG sector\tFFMA/wavefront", 1,
                             CEILING_FP32, fp32_cells, false},
    [RESULTS_TENSOR_LADDER] = {"bf16 ladder", "bf16", "cuBLAS bf16", "tensor-ladder.tsv", "tensor-ladder-ideas.tsv",
                               "tensor_ladder_idea_rows", "tensor_ladder_table",
                               "TFLOP/s\t% cuBLAS bf16\t% bf16 roof\tx step before\ttensor pipe %\twavefr./LDSM",
                               1000, CEILING_TENSOR_BF16, tensor_cells, true},
};

struct report_ladder report_ladder_of(enum results_ladder ladder)
{
    const struct ladder_pages *p = &pages[ladder];
    return (struct report_ladder){p->name, report_anchor(p->precision, 1), p->reference_label};
}

/* roof: the run's measured ceiling of the ladder's arithmetic (NAN: none), which "% roof" divides the FLOP/s by,
 * as summary.csv's fp32_roof_pct does; from the two, so that a run older than that column has the figure too. */
static void step_row(FILE *f, const struct report_model *m, enum results_ladder ladder, int v, double previous_ms,
                     int width, double roof, const struct step_counters *c)
{
    const struct ladder_pages *p = &pages[ladder];
    const char *name = m->variant[v];
    char cell[12][64];
    double median = report_summary_value(m, name, width, SUMMARY_MEDIAN_MS);
    double gflops = report_summary_value(m, name, width, SUMMARY_GFLOPS);
    report_format_number(cell[0], sizeof cell[0], gflops / p->gflops_per_unit, p->gflops_per_unit > 1 ? "%.1f" : "%.0f");
    report_format_number(cell[1], sizeof cell[1],
                         100.0 * report_anchor_ms(m, v, product_shape_square(width), 1) / median, "%.1f");
    double roof_pct = ceiling_share_pct(gflops, roof);
    snprintf(cell[2], sizeof cell[2], isnan(roof_pct) ? "-" : "%.1f", roof_pct); /* "-": no ceiling measured */
    report_format_number(cell[3], sizeof cell[3], previous_ms / median, "%.2fx");
    if (isnan(previous_ms))
        snprintf(cell[3], sizeof cell[3], "-");
    p->own_cells(&cell[4], c);
    report_format_count(cell[6], sizeof cell[6], report_summary_value(m, name, width, SUMMARY_SHARED_CONFLICTS_EXACT));
    double registers = report_summary_value(m, name, width, SUMMARY_REGISTERS_PER_THREAD);
    snprintf(cell[7], sizeof cell[7], isnan(registers) ? "-" : "%.0f", registers);
    report_format_occupancy(cell[8], sizeof cell[8],
                            report_summary_value(m, name, width, SUMMARY_THEORETICAL_OCCUPANCY_PCT),
                            report_summary_value(m, name, width, SUMMARY_ACHIEVED_OCCUPANCY_PCT));
    report_format_number(cell[9], sizeof cell[9], report_summary_value(m, name, width, SUMMARY_ISSUE_SLOTS_PCT), "%.1f");
    report_format_number(cell[10], sizeof cell[10], c->l2_hit_pct, "%.1f");
    report_format_number(cell[11], sizeof cell[11], c->dram_bytes / 1e6, "%.0f");
    fprintf(f, "%d\t%d\t", v + 1, results_ladder_step(m->r, ladder, name));
    report_put_cell(f, name, 0);
    const int cells = (int)(sizeof cell / sizeof cell[0]);
    for (int i = 0; i < cells; ++i)
        report_put_cell(f, cell[i], i == cells - 1);
}

/* The table's 14 columns laid out from the widths their cells take (a run without metrics fills six of them with "not
 * collected", which ran into each other at fixed places). */
static int write_steps(const struct report_model *m, enum results_ladder ladder, const int *order, int n,
                       const struct page_output *out, struct error *e)
{
    const struct ladder_pages *p = &pages[ladder];
    char path[PATH_IN_FOLDER_LEN];
    int width = m->largest_width;
    double roof;
    if (results_environment_number(m->r, ceiling_key(p->roof), &roof, e))
        return e->code;
    FILE *f = report_open(out->dir, p->steps_file, path, sizeof path, e);
    if (!f)
        return e->code;
    fprintf(f, "0\tstep\tvariant\t%s\texcess wavefr.\tregs\toccup. %% th/ach\tissue %%\tL2 hit %%\tDRAM MB\n",
            p->header);
    double previous_ms = NAN;
    for (int i = 0; i < n && !e->code; ++i) {
        struct step_counters c;
        const char *name = m->variant[order[i]];
        if (results_summary_row(m->r, name, product_shape_square(width)) < 0 || read_counters(m, name, width, &c, e))
            continue;
        step_row(f, m, ladder, order[i], previous_ms, width, roof, &c);
        previous_ms = report_passed(m, name, width) ? report_summary_value(m, name, width, SUMMARY_MEDIAN_MS) : NAN;
    }
    if (e->code ? (fclose(f), e->code) : report_close(f, path, e))
        return e->code;
    return report_table_layout(out->variables, p->table_variable, path, 2, 14, 0.02, 1.0, 11.0, 6.0, e);
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

/* Says the counter in out where it moved; returns whether the run has it on both steps. */
static bool moved_counter(char *out, size_t len, const char *name, double before, double after, bool percent)
{
    char from[32], to[32];
    size_t used = strlen(out);
    if (isnan(before) || isnan(after))
        return false;
    if (before == after || used >= len)
        return true;
    if (percent) {
        if (fabs(after / before - 1) >= MOVED_FRACTION)
            snprintf(out + used, len - used, "%s%s %.0f → %.0f %%", used ? ", " : "", name, before, after);
    } else if (before == 0 || after == 0) {
        report_format_count(from, sizeof from, before);
        report_format_count(to, sizeof to, after);
        snprintf(out + used, len - used, "%s%s %s → %s", used ? ", " : "", name, from, to);
    } else if (fabs(after / before - 1) >= MOVED_FRACTION) {
        snprintf(out + used, len - used, "%s%s %+.0f %%", used ? ", " : "", name, 100 * (after / before - 1));
    }
    return true;
}

/* What the run measured for step v against the step before it: the time, and the counters that moved. */
static void measured_text(char *out, size_t len, const struct report_model *m, enum results_ladder ladder,
                          int previous, int v, int width, const struct step_counters *before,
                          const struct step_counters *after)
{
    char speed[32], from[32], to[32], moved[384] = "";
    double before_ms = report_summary_value(m, m->variant[previous], width, SUMMARY_MEDIAN_MS);
    double after_ms = report_summary_value(m, m->variant[v], width, SUMMARY_MEDIAN_MS);
    report_format_speed_change(speed, sizeof speed, before_ms, after_ms, 2);
    report_format_significant(from, sizeof from, before_ms, 4);
    report_format_significant(to, sizeof to, after_ms, 4);
    bool collected = moved_counter(moved, sizeof moved, "global load sectors", before->load_sectors,
                                   after->load_sectors, false);
    collected |= moved_counter(moved, sizeof moved, "shared wavefronts", before->shared_wavefronts,
                               after->shared_wavefronts, false);
    collected |= moved_counter(moved, sizeof moved, "ldmatrix wavefronts", before->ldsm_wavefronts,
                               after->ldsm_wavefronts, false);
    collected |= moved_counter(moved, sizeof moved, "exact conflicts",
                               report_summary_value(m, m->variant[previous], width, SUMMARY_SHARED_CONFLICTS_EXACT),
                               report_summary_value(m, m->variant[v], width, SUMMARY_SHARED_CONFLICTS_EXACT), false);
    collected |= moved_counter(moved, sizeof moved, "DRAM bytes", before->dram_bytes, after->dram_bytes, false);
    if (pages[ladder].says_tensor_pipe)
        collected |= moved_counter(moved, sizeof moved, "tensor pipe busy", before->tensor_pipe_pct,
                                   after->tensor_pipe_pct, true);
    snprintf(out, len, "measured against %s: %s (%s → %s ms)%s%s", m->variant[previous], speed, from, to,
             *moved ? "; " : collected ? "; the counters within 5 %" : "; no counters collected", moved);
}

/* Each step's idea in the registry's words, and under it what the run measured against the step before at the
 * largest width (a prediction can fail: the idea says what was tried, the measurement what happened). */
static int write_ideas(const struct report_model *m, enum results_ladder ladder, const int *order, int n,
                       const char *dir, int *rows, struct error *e)
{
    char path[PATH_IN_FOLDER_LEN], measured[640];
    int width = m->largest_width, previous = -1;
    struct step_counters before, after;
    FILE *f = report_open(dir, pages[ladder].ideas_file, path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("0\tstep\tvariant\tthe idea it adds, and what the run measured\n", f);
    *rows = 0;
    for (int i = 0; i < n && !e->code; ++i) {
        const char *name = m->variant[order[i]];
        *rows += put_text_rows(f, order[i] + 1, results_ladder_step(m->r, ladder, name), name,
                               results_description(m->r, name));
        bool measured_here = report_passed(m, name, width) && read_counters(m, name, width, &after, e) == 0;
        if (measured_here && previous >= 0) {
            measured_text(measured, sizeof measured, m, ladder, previous, order[i], width, &before, &after);
            *rows += put_text_rows(f, 0, 0, NULL, measured);
        }
        previous = measured_here ? order[i] : -1;
        if (measured_here)
            before = after;
    }
    return e->code ? (fclose(f), e->code) : report_close(f, path, e);
}

/* A ladder's table of steps; no page for a run without steps of it. */
static int write_ladder(const struct report_model *m, enum results_ladder ladder, struct page_output *out,
                        struct error *e)
{
    int order[MAX_VARIANTS];
    int n = report_ladder_order(m, ladder, order);
    out->copies = n > 0;
    return n > 0 ? write_steps(m, ladder, order, n, out, e) : 0;
}

/* Its ideas, likewise. */
static int write_ladder_ideas(const struct report_model *m, enum results_ladder ladder, struct page_output *out,
                              struct error *e)
{
    int order[MAX_VARIANTS], rows;
    int n = report_ladder_order(m, ladder, order);
    out->copies = n > 0;
    if (n == 0 || write_ideas(m, ladder, order, n, out->dir, &rows, e))
        return e->code;
    fprintf(out->variables, "%s = %d\n", pages[ladder].idea_rows_variable, rows);
    return 0;
}

int report_write_ladder(const struct report_model *m, struct page_output *out, struct error *e)
{
    return write_ladder(m, RESULTS_FP32_LADDER, out, e);
}

int report_write_ladder_ideas(const struct report_model *m, struct page_output *out, struct error *e)
{
    return write_ladder_ideas(m, RESULTS_FP32_LADDER, out, e);
}

int report_write_tensor_ladder(const struct report_model *m, struct page_output *out, struct error *e)
{
    return write_ladder(m, RESULTS_TENSOR_LADDER, out, e);
}

int report_write_tensor_ladder_ideas(const struct report_model *m, struct page_output *out, struct error *e)
{
    return write_ladder_ideas(m, RESULTS_TENSOR_LADDER, out, e);
}
