#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../common/paths.h"
#include "../profile/metric_catalog.h"
#include "cells.h"
#include "ladder.h"

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

static void step_row(FILE *f, const struct report_model *m, int v, double previous_ms, int width,
                     const struct step_counters *c)
{
    const char *name = m->variant[v];
    int step = results_ladder_step(m->r, name);
    char cell[11][64];
    double median = report_summary_value(m, name, width, SUMMARY_MEDIAN_MS);
    report_format_number(cell[0], sizeof cell[0], report_summary_value(m, name, width, SUMMARY_GFLOPS), "%.0f");
    report_format_number(cell[1], sizeof cell[1], 100.0 * report_anchor_ms(m, v, width, 1) / median, "%.1f");
    report_format_number(cell[2], sizeof cell[2], previous_ms / median, "%.2fx");
    if (isnan(previous_ms))
        snprintf(cell[2], sizeof cell[2], "-");
    per_unit_cell(cell[3], sizeof cell[3], c->ffma, c->load_sectors, "no LDG");
    per_unit_cell(cell[4], sizeof cell[4], c->ffma, c->shared_wavefronts, "no LDS");
    report_format_count(cell[5], sizeof cell[5], report_summary_value(m, name, width, SUMMARY_SHARED_CONFLICTS_EXACT));
    double registers = report_summary_value(m, name, width, SUMMARY_REGISTERS_PER_THREAD);
    snprintf(cell[6], sizeof cell[6], isnan(registers) ? "-" : "%.0f", registers);
    report_format_occupancy(cell[7], sizeof cell[7],
                            report_summary_value(m, name, width, SUMMARY_THEORETICAL_OCCUPANCY_PCT),
                            report_summary_value(m, name, width, SUMMARY_ACHIEVED_OCCUPANCY_PCT));
    report_format_number(cell[8], sizeof cell[8], report_summary_value(m, name, width, SUMMARY_ISSUE_SLOTS_PCT), "%.1f");
    report_format_number(cell[9], sizeof cell[9], c->l2_hit_pct, "%.1f");
    report_format_number(cell[10], sizeof cell[10], c->dram_bytes / 1e6, "%.0f");
    fprintf(f, "%d\t%d\t", v + 1, step);
    report_put_cell(f, name, 0);
    const int cells = (int)(sizeof cell / sizeof cell[0]);
    for (int i = 0; i < cells; ++i)
        report_put_cell(f, cell[i], i == cells - 1);
}

static int write_steps(const struct report_model *m, const int *order, int n, const char *dir, struct error *e)
{
    char path[PATH_IN_FOLDER_LEN];
    int width = m->width[m->widths - 1];
    FILE *f = report_open(dir, "ladder.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("0\tstep\tvariant\tGFLOP/s\t% cuBLAS\tx step before\tFFMA/LDG sector\tFFMA/wavefront\texcess wavefr."
          "\tregs\toccup. % th/ach\tissue %\tL2 hit %\tDRAM MB\n",
          f);
    double previous_ms = NAN;
    for (int i = 0; i < n && !e->code; ++i) {
        struct step_counters c;
        const char *name = m->variant[order[i]];
        if (results_summary_row(m->r, name, width) < 0 || read_counters(m, name, width, &c, e))
            continue;
        step_row(f, m, order[i], previous_ms, width, &c);
        previous_ms = report_passed(m, name, width) ? report_summary_value(m, name, width, SUMMARY_MEDIAN_MS) : NAN;
    }
    return e->code ? (fclose(f), e->code) : report_close(f, path, e);
}

static int write_ideas(const struct report_model *m, const int *order, int n, const char *dir, struct error *e)
{
    char path[PATH_IN_FOLDER_LEN];
    FILE *f = report_open(dir, "ladder-ideas.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("0\tstep\tvariant\tthe idea it adds\n", f);
    for (int i = 0; i < n; ++i) {
        fprintf(f, "%d\t%d\t", order[i] + 1, results_ladder_step(m->r, m->variant[order[i]]));
        report_put_cell(f, m->variant[order[i]], 0);
        report_put_cell(f, results_description(m->r, m->variant[order[i]]), 1);
    }
    return report_close(f, path, e);
}

int report_write_ladder(const struct report_model *m, const char *dir, struct error *e)
{
    int order[MAX_VARIANTS];
    int n = report_ladder_order(m, order);
    if (n == 0)
        return 0;
    return write_steps(m, order, n, dir, e) || write_ideas(m, order, n, dir, e) ? e->code : 0;
}
