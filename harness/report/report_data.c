#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/paths.h"
#include "../common/palette.h"
#include "../profile/metric_catalog.h"
#include "../results/schema.h"
#include "cells.h"
#include "ladder.h"
#include "model.h"
#include "pages.h"
#include "roofline.h"
#include "report_data.h"
#include "../ceilings/rates.h"

/* GFLOP/s of a passing run, else NaN (no point). */
static double passed_gflops(const struct report_model *m, const char *variant, int width)
{
    return report_passed(m, variant, width) ? report_summary_value(m, variant, width, SUMMARY_GFLOPS) : NAN;
}

/* The variants the performance page draws against width: those off the FP32 ladder, and the ladder's first and
 * last steps, the anchors of the speedups (naive and cuBLAS); the ladder has a panel of its own. Returns how many. */
static int lesson_panel(const struct report_model *m, int lines[MAX_VARIANTS])
{
    int order[MAX_VARIANTS], steps = report_ladder_order(m, RESULTS_FP32_LADDER, order), count = 0;
    for (int v = 0; v < m->variants; ++v) {
        int step = results_ladder_step(m->r, RESULTS_FP32_LADDER, m->variant[v]);
        if (step == 0 || v == order[0] || v == order[steps - 1])
            lines[count++] = v;
    }
    return count;
}

/* Their linetypes. */
static void write_lesson_linetypes(FILE *f, const struct report_model *m)
{
    int lines[MAX_VARIANTS], count = lesson_panel(m, lines);
    fputs("lesson_linetypes = \"", f);
    for (int i = 0; i < count; ++i)
        fprintf(f, "%s%d", i ? " " : "", lines[i] + 1);
    fputs("\"\n", f);
}

/* Two lines of the performance page lie on one another, the later hiding the earlier, where their GFLOP/s are
 * this close at every width both passed. */
#define OVERLAP_FRACTION 0.03

static bool lines_overlap(const struct report_model *m, int a, int b)
{
    int shared = 0;
    for (int w = 0; w < m->widths; ++w) {
        double ga = passed_gflops(m, m->variant[a], m->width[w]), gb = passed_gflops(m, m->variant[b], m->width[w]);
        if (isnan(ga) || isnan(gb))
            continue;
        if (fabs(ga / gb - 1) > OVERLAP_FRACTION)
            return false;
        ++shared;
    }
    return shared > 0;
}

/* Each of the left panel's lines' group: lines on one another, directly or through others, share the lowest index
 * among them (two groups that meet take the lower label, so that no member lies below its label). */
static void overlap_groups(const struct report_model *m, const int *lines, int count, int *group)
{
    for (int i = 0; i < count; ++i)
        group[i] = i;
    for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j)
            if (group[i] != group[j] && lines_overlap(m, lines[i], lines[j])) {
                int to = group[i] < group[j] ? group[i] : group[j], from = group[i] + group[j] - to;
                for (int k = 0; k < count; ++k)
                    group[k] = group[k] == from ? to : group[k];
            }
}

/* The caption's lines naming the left panel's lines that lie on one another, in groups ("a = b = c": a line on
 * another of the group), wrapped to the width of the caption (its lines are shorter; 160 characters of it fit on the
 * page); empty for none. */
#define CAPTION_COLUMNS 160

/* The most bars a comparison's page draws: the suite's 39 units at one width fit, a program's hundred kernels do
 * not. */
#define COMPARE_BARS_MAX 40

static void write_overlap_note(FILE *f, const struct report_model *m)
{
    int lines[MAX_VARIANTS], count = lesson_panel(m, lines), group[MAX_VARIANTS], groups = 0;
    char note[1024] = "";
    overlap_groups(m, lines, count, group);
    for (int i = 0; i < count; ++i)
        for (int j = i + 1, members = 0; j < count; ++j) {
            if (group[i] != i || group[j] != i)
                continue;
            size_t used = strlen(note);
            if (members++ == 0)
                snprintf(note + used, sizeof note - used, "%s%s", groups++ ? "; " : "", m->variant[lines[i]]);
            used = strlen(note);
            snprintf(note + used, sizeof note - used, " = %s", m->variant[lines[j]]);
        }
    char sentence[sizeof note + 64] = "";
    if (groups)
        snprintf(sentence, sizeof sentence, "On one another (within %.0f %% at every width): %s.",
                 100 * OVERLAP_FRACTION, note);
    report_put_wrapped(f, "performance_overlap_note", sentence, CAPTION_COLUMNS);
}

static void write_sizes_and_variants(FILE *f, const struct report_model *m)
{
    fputs("sizes = \"", f);
    for (int w = 0; w < m->widths; ++w)
        fprintf(f, "%s%d", w ? " " : "", m->width[w]);
    fputs("\"\nvariant_names = '", f);
    for (int v = 0; v < m->variants; ++v) {
        fputs(v ? " " : "", f);
        report_put_quoted(f, m->variant[v]);
    }
    fprintf(f, "'\nvariant_count = %d\nlargest_width = %d\n", m->variants, m->largest_width);
    write_lesson_linetypes(f, m);
    write_overlap_note(f, m);
    palette_write_linetypes(f, m->variants);
}

/* summary.csv's shared_conflicts_exact held the kernel-total estimate before the source group came (runs whose
 * environment has no source_group key): such a run's figure is labelled as what it is. */
static int conflicts_are_exact(const struct results_folder *r)
{
    return results_environment(r, "source_group") != NULL;
}

/* The efficiency metric counts LDG instructions only, and so do the instrumented sector and request counts: a
 * kernel that loads through cp.async (LDGSTS) or TMA, as cuBLAS does, shows 0 %, which would read as "all wasted". */
static const char *load_efficiency_note(double efficiency)
{
    if (isnan(efficiency))
        return "not collected";
    if (efficiency == 0)
        return "no LDG";
    return "-";
}

/* The L2 of the run's GPU in bytes (environment.csv), NAN where not recorded. */
static double l2_bytes(const struct report_model *m)
{
    struct error ignored = {0};
    double bytes = NAN;
    results_environment_number(m->r, "l2_cache_bytes", &bytes, &ignored);
    return bytes;
}

/* M, N and P together (summary.csv's min_bytes, 3 W^2 elements of a square) fit in the L2: the kernel's reuse is
 * served there, and its DRAM traffic says little of its accesses. */
static bool operands_fit_l2(const struct report_model *m, const char *variant, struct product_shape size)
{
    return report_value_at(m, variant, size, SUMMARY_MIN_BYTES) < l2_bytes(m);
}

/* The footnotes of the marks a size's tables show, each empty where none shows: "no LDG" (summary, ladder and
 * load efficiency pages), † on DRAM GB/s and "-" for registers (summary); and the size as a page's title says it.
 * Each is named by the size as -s takes it: no_ldg_note_4096, no_ldg_note_8192x3072x1024. */
static void write_size_notes(FILE *f, const struct report_model *m, struct product_shape size)
{
    char name[96], fits[256] = "", note[512], text[PRODUCT_SHAPE_LEN], title[PRODUCT_SHAPE_LEN];
    bool no_ldg = false, library = false;
    product_shape_text(size, text);
    for (int v = 0; v < m->variants; ++v) {
        const char *variant = m->variant[v];
        size_t used = strlen(fits);
        if (results_summary_row(m->r, variant, size) < 0)
            continue;
        no_ldg |= strcmp(load_efficiency_note(report_value_at(m, variant, size, SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT)),
                         "no LDG") == 0;
        library |= isnan(report_value_at(m, variant, size, SUMMARY_REGISTERS_PER_THREAD)) &&
                   schema_column_or_none(&m->r->summary, &summary_csv, SUMMARY_REGISTERS_PER_THREAD) >= 0;
        double bytes = report_value_at(m, variant, size, SUMMARY_MIN_BYTES);
        char item[64];
        snprintf(item, sizeof item, "%s %.1f MB", m->precision[v], bytes / 1e6);
        if (operands_fit_l2(m, variant, size) && !strstr(fits, item))
            snprintf(fits + used, sizeof fits - used, "%s%s", used ? ", " : "", item);
    }
    snprintf(name, sizeof name, "size_title_%s", text);
    report_format_size(title, sizeof title, size);
    report_put_variable(f, name, title);
    snprintf(name, sizeof name, "no_ldg_note_%s", text);
    report_put_variable(f, name, no_ldg ? "no LDG: the kernel loads global memory only through cp.async (LDGSTS) "
                                          "or TMA, which the LDG counters behind load efficiency and sectors per "
                                          "request leave out."
                                        : "");
    snprintf(note, sizeof note, "†: M, N and P (%s) fit in the %.1f MB L2 (l2_cache_bytes): the kernel's reuse is "
                                "served there, and its DRAM GB/s says little of its accesses.", fits, l2_bytes(m) / 1e6);
    snprintf(name, sizeof name, "l2_fit_note_%s", text);
    report_put_variable(f, name, *fits ? note : "");
    snprintf(name, sizeof name, "library_note_%s", text);
    report_put_variable(f, name, library ? "-: a library call (cuBLAS): memscope does not read its kernels' "
                                           "registers, so it has no theoretical occupancy either."
                                         : "");
}

/* The variables every page may read: the run's GPU, peaks, widths, variants and footnotes. The pages' own follow
 * (report_write_pages). */
static int write_run_variables(FILE *f, const struct report_model *m, const char *note, struct error *e)
{
    struct ceiling_rates peak; /* the datasheet's (harness/ceilings/rates.c) */
    if (report_datasheet(m->r, &peak, e))
        return e->code;
    fputs("# Written by memscope-report-data; loaded by scripts/report/*.gp.\n", f);
    report_put_variable(f, "gpu_name", results_environment(m->r, "gpu_name"));
    report_put_variable(f, "source_note", note); /* drawn as given: main.c refuses a line break */
    report_put_variable(f, "conflicts_label", conflicts_are_exact(m->r) ? "exact (per instruction, source group)"
                                                                         : "estimate from kernel totals (a run before 2026-11-23)");
    report_put_number(f, "fp32_peak_gflops", peak.value[CEILING_FP32]);
    report_put_number(f, "fp64_peak_gflops", peak.value[CEILING_FP64]);
    report_put_number(f, "dram_peak_gbs", peak.value[CEILING_DRAM]);
    fprintf(f, "ladder_steps = %d\n", report_ladder_steps(m, RESULTS_FP32_LADDER));
    fprintf(f, "tensor_ladder_steps = %d\n", report_ladder_steps(m, RESULTS_TENSOR_LADDER));
    /* What the pages of the largest width say they show: a profile's jobs have no width. */
    fprintf(f, "program_profile = %d\n", m->program);
    fprintf(f, "at_width = '%s", m->program ? "" : " at W = ");
    if (!m->program)
        fprintf(f, "%d", m->largest_width);
    fputs("'\n", f);
    write_sizes_and_variants(f, m);
    for (int s = 0; s < m->shapes; ++s)
        write_size_notes(f, m, m->shape[s]);
    return 0;
}

/* ---- The title page's findings: what the run found, from its own figures at the largest width ---- */

/* A lesson's two variants, before and after its idea, and the counter the idea moves: a summary column, or a
 * metrics.csv counter where the summary has none (column SUMMARY_COLUMNS). */
static const struct lesson {
    const char *label, *before, *after, *counter;
    enum summary_column column;
    enum collected_metric metric;
    bool percent;
} lessons[] = {
    {"coalescing", "naive_uncoalesced", "naive", "global load efficiency", SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT, 0, true},
    {"tiling", "naive", "tiled_32", "global load requests", SUMMARY_COLUMNS, METRIC_GLOBAL_LD_REQUESTS, false},
    {"padding", "tiled_transposed", "tiled_transposed_padded", "exact bank conflicts", SUMMARY_SHARED_CONFLICTS_EXACT,
     0, false},
};

static double lesson_counter(const struct report_model *m, const struct lesson *l, const char *variant, int width,
                             struct error *e)
{
    double value = NAN;
    if (l->column != SUMMARY_COLUMNS)
        return report_summary_value(m, variant, width, l->column);
    results_metric_sum(m->r, variant, product_shape_square(width), collected_metric_name(l->metric), &value, e);
    return value;
}

static void counter_cell(char *cell, size_t len, const struct lesson *l, double value)
{
    if (l->percent)
        snprintf(cell, len, "%.1f %%", value);
    else
        report_format_count(cell, len, value);
}

/* One line per lesson whose two variants passed at width with their counter collected. */
static int lesson_findings(FILE *f, const struct report_model *m, int width, struct error *e)
{
    for (size_t i = 0; i < sizeof lessons / sizeof lessons[0]; ++i) {
        const struct lesson *l = &lessons[i];
        char from[32], to[32], speed[32], value[256];
        if (!report_passed(m, l->before, width) || !report_passed(m, l->after, width))
            continue;
        double before = lesson_counter(m, l, l->before, width, e), after = lesson_counter(m, l, l->after, width, e);
        if (e->code)
            return e->code;
        if (isnan(before) || isnan(after))
            continue;
        counter_cell(from, sizeof from, l, before);
        counter_cell(to, sizeof to, l, after);
        report_format_speed_change(speed, sizeof speed, report_summary_value(m, l->before, width, SUMMARY_MEDIAN_MS),
                                   report_summary_value(m, l->after, width, SUMMARY_MEDIAN_MS), 1);
        snprintf(value, sizeof value, "%s → %s: %s %s → %s, %s", l->before, l->after, l->counter, from, to, speed);
        report_put_pair(f, l->label, value);
    }
    return 0;
}

/* The fastest hand-written rung of a ladder against its library. */
static void ladder_finding(FILE *f, const struct report_model *m, enum results_ladder ladder, int width)
{
    const struct report_ladder l = report_ladder_of(ladder);
    int best = report_ladder_fastest(m, ladder, product_shape_square(width));
    char value[256];
    if (best < 0)
        return;
    const char *name = m->variant[best];
    double gflops = report_summary_value(m, name, width, SUMMARY_GFLOPS);
    if (!report_passed(m, l.reference, width))
        snprintf(value, sizeof value, "best rung %s at %.1f TFLOP/s (%s did not pass at this width)", name,
                 gflops / 1000, l.reference_label);
    else
        snprintf(value, sizeof value, "best rung %s at %.1f %% of %s (%.1f of %.1f TFLOP/s)", name,
                 100.0 * report_summary_value(m, l.reference, width, SUMMARY_MEDIAN_MS) /
                     report_summary_value(m, name, width, SUMMARY_MEDIAN_MS),
                 l.reference_label, gflops / 1000, report_summary_value(m, l.reference, width, SUMMARY_GFLOPS) / 1000);
    report_put_pair(f, l.name, value);
}

/* Appends item to a list of at most max named items, then "..." once. */
static void list_item(char *list, size_t len, int index, int max, const char *item)
{
    size_t used = strlen(list);
    if (index < max)
        snprintf(list + used, len - used, "%s%s", index ? ", " : "", item);
    else if (index == max)
        snprintf(list + used, len - used, ", ...");
}

/* The products that failed their check, at every width. */
static void products_finding(FILE *f, const struct results_folder *r)
{
    char failed[256] = "", item[128], value[400];
    int n_failed = 0;
    for (int row = 0; row < r->summary.rows; ++row)
        if (strcmp(csv_table_text(&r->summary, row, r->col_status), "passed") != 0) {
            char size[PRODUCT_SHAPE_LEN];
            report_format_size(size, sizeof size, r->summary_shape[row]);
            snprintf(item, sizeof item, "%s at %s", csv_table_text(&r->summary, row, r->col_variant), size);
            list_item(failed, sizeof failed, n_failed++, 3, item);
        }
    if (n_failed)
        snprintf(value, sizeof value, "%d of %d products failed their check (%s)", n_failed, r->summary.rows, failed);
    else
        snprintf(value, sizeof value, "all %d products matched the reference", r->summary.rows);
    report_put_pair(f, "checks", value);
}

/* Whether row's kernel failed a check in an earlier row: a kernel is named once, however many of its checks
 * failed. */
static bool failed_before(const struct csv_table *t, int row, int kernel, int status)
{
    for (int before = 0; before < row; ++before)
        if (strcmp(csv_table_text(t, before, status), "pass") != 0 &&
            strcmp(csv_table_text(t, before, kernel), csv_table_text(t, row, kernel)) == 0)
            return true;
    return false;
}

/* The ground-truth checks that failed, if any, by their kernels (the ground-truth pages give each check): a
 * metric's name is as long as the page is wide. */
static void truth_finding(FILE *f, const struct results_folder *r)
{
    const struct csv_table *t = &r->validate;
    char kernels[256] = "", value[400];
    int n_failed = 0, n_kernels = 0;
    int status = r->has_validate ? schema_column_or_none(t, &validate_csv, VALIDATE_STATUS) : -1;
    int kernel = schema_column_or_none(t, &validate_csv, VALIDATE_KERNEL);
    for (int row = 0; status >= 0 && kernel >= 0 && row < t->rows; ++row)
        if (strcmp(csv_table_text(t, row, status), "pass") != 0) {
            ++n_failed;
            if (!failed_before(t, row, kernel, status))
                list_item(kernels, sizeof kernels, n_kernels++, 3, csv_table_text(t, row, kernel));
        }
    if (status < 0 || kernel < 0)
        snprintf(value, sizeof value, "no ground-truth run (memscope --validate)");
    else if (n_failed)
        snprintf(value, sizeof value, "%d of %d checks failed (%s)", n_failed, t->rows, kernels);
    else
        snprintf(value, sizeof value, "all %d checks passed", t->rows);
    report_put_pair(f, "ground truth", value);
}

static int write_findings(FILE *f, const struct report_model *m, struct error *e)
{
    int width = m->largest_width;
    if (m->widths == 0) {
        fputs("found\tno square product in the run: its pages at the largest width are left out\n", f);
        products_finding(f, m->r);
        truth_finding(f, m->r);
        return 0;
    }
    fprintf(f, "found\tat W = %d, the largest width (the checks: at every size)\n", width);
    ladder_finding(f, m, RESULTS_FP32_LADDER, width);
    ladder_finding(f, m, RESULTS_TENSOR_LADDER, width);
    if (lesson_findings(f, m, width, e))
        return e->code;
    products_finding(f, m->r);
    truth_finding(f, m->r);
    return 0;
}

int report_title_layout(FILE *variables, const char *path, struct error *e)
{
    return report_table_layout(variables, "title_table", path, 1, 2, 0.08, 1.0, 11.0, 6.0, e);
}

int report_write_title(const struct report_model *m, struct page_output *out, struct error *e)
{
    const struct results_folder *r = m->r;
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)], value[1024];
    report_put_variable(out->variables, "title_heading", "memscope: matrix multiplication on the memory system");
    FILE *f = report_open(out->dir, "title.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    if (write_findings(f, m, e)) {
        fclose(f);
        return e->code;
    }
    fputs("recorded\tfrom environment.csv\n", f);
    report_put_pair(f, "GPU", report_environment_or(r, "gpu_name", "unknown"));
    snprintf(value, sizeof value, "%s (CUDA %s)", report_environment_or(r, "driver_version", "unknown"),
             report_environment_or(r, "cuda_driver_version", "?"));
    report_put_pair(f, "Driver", value);
    snprintf(value, sizeof value, "runtime %s, nvcc %s, built for %s", report_environment_or(r, "cuda_runtime_version", "?"),
             report_environment_or(r, "nvcc_version", "?"), report_environment_or(r, "cuda_arch", "?"));
    report_put_pair(f, "CUDA", value);
    snprintf(value, sizeof value, "SM %s MHz at start, %s MHz at end (max %s); memory %s MHz (max %s)",
             report_environment_or(r, "sm_clock_mhz_start", "?"), report_environment_or(r, "sm_clock_mhz_end", "?"),
             report_environment_or(r, "sm_clock_max_mhz", "?"), report_environment_or(r, "memory_clock_mhz_start", "?"),
             report_environment_or(r, "memory_clock_max_mhz", "?"));
    report_put_pair(f, "Clocks", value);
    const char *dirty = report_environment_or(r, "git_dirty", "unknown");
    snprintf(value, sizeof value, "%s%s", report_environment_or(r, "git_commit", "unknown"),
             strcmp(dirty, "0") == 0   ? ""
             : strcmp(dirty, "1") == 0 ? " with uncommitted changes"
                                       : " (whether it had uncommitted changes is not known)");
    report_put_pair(f, "Commit", value);
    report_put_pair(f, "Date (UTC)", report_environment_or(r, "time_utc", "unknown"));
    report_put_pair(f, "Command", report_environment_or(r, "command_line", "unknown"));
    report_put_pair(f, "Results", r->dir);
    return report_close(f, path, e) || report_title_layout(out->variables, path, e) ? e->code : 0;
}

static void summary_row(FILE *f, const struct report_model *m, int v, struct product_shape size)
{
    const char *name = m->variant[v];
    int row = results_summary_row(m->r, name, size);
    char cell[9][64];
    double median = report_value_at(m, name, size, SUMMARY_MEDIAN_MS);
    double reference = report_anchor_ms(m, v, size, 1);
    report_format_significant(cell[0], sizeof cell[0], median, 4);
    report_format_number(cell[1], sizeof cell[1], report_value_at(m, name, size, SUMMARY_GFLOPS), "%.0f");
    report_format_number(cell[2], sizeof cell[2], 100.0 * reference / median, "%.1f");
    double efficiency = report_value_at(m, name, size, SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT);
    const char *note = load_efficiency_note(efficiency);
    report_format_number(cell[3], sizeof cell[3], efficiency, "%.1f");
    if (*note != '-')
        snprintf(cell[3], sizeof cell[3], "%s", note);
    report_format_count(cell[4], sizeof cell[4], report_value_at(m, name, size, SUMMARY_SHARED_CONFLICTS_EXACT));
    report_format_number(cell[5], sizeof cell[5], report_value_at(m, name, size, SUMMARY_DRAM_GBS), "%.0f");
    if (!isnan(report_value_at(m, name, size, SUMMARY_DRAM_GBS)) && operands_fit_l2(m, name, size))
        strncat(cell[5], " †", sizeof cell[5] - strlen(cell[5]) - 1);
    if (isnan(median))
        snprintf(cell[0], sizeof cell[0], "not timed");
    if (isnan(reference) || isnan(median))
        snprintf(cell[2], sizeof cell[2], "-");
    double registers = report_value_at(m, name, size, SUMMARY_REGISTERS_PER_THREAD);
    report_format_number(cell[6], sizeof cell[6], registers, "%.0f");
    if (isnan(registers)) /* a library call, or a run from before the column */
        snprintf(cell[6], sizeof cell[6], "-");
    report_format_occupancy(cell[7], sizeof cell[7],
                            report_value_at(m, name, size, SUMMARY_THEORETICAL_OCCUPANCY_PCT),
                            report_value_at(m, name, size, SUMMARY_ACHIEVED_OCCUPANCY_PCT));
    snprintf(cell[8], sizeof cell[8], "%s", csv_table_text(&m->r->summary, row, m->r->col_status));
    if (results_disturbed(m->r, row))
        snprintf(cell[8] + strlen(cell[8]), sizeof cell[8] - strlen(cell[8]), ", disturbed");
    fprintf(f, "%d\t", v + 1);
    report_put_cell(f, name, 0);
    report_put_cell(f, m->precision[v], 0);
    for (int c = 0; c < 9; ++c)
        report_put_cell(f, cell[c], c == 8);
}

/* A page per size, squares and products of other shapes, the least work first. */
int report_write_summaries(const struct report_model *m, struct page_output *out, struct error *e)
{
    out->copies = m->shapes;
    out->numbered_by = "summary_size";
    for (int s = 0; s < m->shapes && !e->code; ++s) {
        char name[96], path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
        product_shape_text(m->shape[s], out->number[s]);
        snprintf(name, sizeof name, "summary-%s.tsv", out->number[s]);
        FILE *f = report_open(out->dir, name, path, sizeof path, e);
        if (!f)
            return e->code;
        fprintf(f, "0\tvariant\tprecision\tmedian ms\tGFLOP/s\t%% of cuBLAS\tload eff. %%\tconflicts (%s)\tDRAM GB/s"
                   "\tregs\toccupancy %% th./ach.\tcheck\n",
                conflicts_are_exact(m->r) ? "exact" : "estimate");
        for (int v = 0; v < m->variants; ++v)
            if (results_summary_row(m->r, m->variant[v], m->shape[s]) >= 0)
                summary_row(f, m, v, m->shape[s]);
        report_close(f, path, e);
    }
    return e->code;
}

/* The performance page's left panel: one block per variant (gnuplot's index v), width and GFLOP/s of the passing
 * runs. */
static int write_performance_lessons(const struct report_model *m, const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = report_open(dir, "performance.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    for (int v = 0; v < m->variants; ++v) {
        fprintf(f, "# %s\nwidth\tgflops\n", m->variant[v]);
        int points = 0;
        for (int w = 0; w < m->widths; ++w)
            if (report_passed(m, m->variant[v], m->width[w]) && ++points)
                fprintf(f, "%d\t%.6g\n", m->width[w], passed_gflops(m, m->variant[v], m->width[w]));
        if (!points)
            fprintf(f, "%d\tNaN\n", m->width[0]);
        fputs("\n\n", f);
    }
    return report_close(f, path, e);
}

/* Its right panel: the FP32 ladder step by step, a column of GFLOP/s per width. Against width, the ladder's lines
 * lie on one another (its steps differ by a few per cent); one line per width keeps each step apart. */
static int write_performance_ladder(const struct report_model *m, const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    int order[MAX_VARIANTS], steps = report_ladder_order(m, RESULTS_FP32_LADDER, order);
    FILE *f = report_open(dir, "performance-ladder.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("position\tvariant", f);
    for (int w = 0; w < m->widths; ++w)
        fprintf(f, "\tgflops_%d", m->width[w]);
    fputc('\n', f);
    for (int i = 0; i < steps; ++i) {
        fprintf(f, "%d\t", i);
        report_put_cell(f, m->variant[order[i]], 0);
        for (int w = 0; w < m->widths; ++w)
            report_put_value(f, passed_gflops(m, m->variant[order[i]], m->width[w]), w == m->widths - 1);
    }
    return report_close(f, path, e);
}

int report_write_performance(const struct report_model *m, struct page_output *out, struct error *e)
{
    return write_performance_lessons(m, out->dir, e) || write_performance_ladder(m, out->dir, e) ? e->code : 0;
}

/* Per-variant values at the largest width, one row per variant in registry order: the bar charts' table
 * (efficiency, conflicts, DRAM, speedup). */
static int write_bars(const struct report_model *m, const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    int width = m->largest_width;
    FILE *f = report_open(dir, "bars.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("position\tlinetype\tvariant\tload_eff_pct\tconflicts_hw\tconflicts_exact\tdram_gbs\tdram_pct"
          "\tspeedup_over_naive\tpct_of_cublas\tload_eff_note\n",
          f);
    for (int v = 0; v < m->variants; ++v) {
        const char *name = m->variant[v];
        double median = report_passed(m, name, width) ? report_summary_value(m, name, width, SUMMARY_MEDIAN_MS) : NAN;
        fprintf(f, "%d\t%d\t", v, v + 1);
        report_put_cell(f, name, 0);
        double efficiency = report_summary_value(m, name, width, SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT);
        const char *note = load_efficiency_note(efficiency);
        report_put_value(f, *note == '-' ? efficiency : NAN, 0);
        report_put_value(f, report_summary_value(m, name, width, SUMMARY_SHARED_CONFLICTS_HW), 0);
        report_put_value(f, report_summary_value(m, name, width, SUMMARY_SHARED_CONFLICTS_EXACT), 0);
        report_put_value(f, report_summary_value(m, name, width, SUMMARY_DRAM_GBS), 0);
        report_put_value(f, report_summary_value(m, name, width, SUMMARY_DRAM_PCT_OF_PEAK), 0);
        report_put_value(f, report_anchor_ms(m, v, product_shape_square(width), 0) / median, 0);
        report_put_value(f, 100.0 * report_anchor_ms(m, v, product_shape_square(width), 1) / median, 0);
        report_put_cell(f, note, 1);
    }
    return report_close(f, path, e);
}

/* The bank-conflict page's two sentences on the hardware counter, from the run's figures at the largest width:
 * how far above 0 it reads where the exact count is 0, and the kernels whose conflicts it mostly leaves out (those
 * of cp.async copies, LDGSTS, which it does not count). Empty for a run whose count is the old estimate. */
static void conflicts_notes(const struct report_model *m, char *overcount, char *missed, size_t len)
{
    int width = m->largest_width, none = 0, above = 0, worst = -1, n_missed = 0;
    double worst_hw = 0;
    char names[400] = "", count[32];
    *overcount = *missed = '\0';
    for (int v = 0; v < m->variants && conflicts_are_exact(m->r); ++v) {
        double hw = report_summary_value(m, m->variant[v], width, SUMMARY_SHARED_CONFLICTS_HW);
        double exact = report_summary_value(m, m->variant[v], width, SUMMARY_SHARED_CONFLICTS_EXACT);
        size_t used = strlen(names);
        if (isnan(hw) || isnan(exact))
            continue;
        if (exact == 0) {
            ++none;
            above += hw > 0;
            if (hw > worst_hw)
                worst = v, worst_hw = hw;
        } else if (hw < exact / 2) {
            snprintf(names + used, sizeof names - used, "%s%s", n_missed++ ? ", " : "", m->variant[v]);
        }
    }
    if (worst >= 0) {
        report_format_count(count, sizeof count, worst_hw);
        snprintf(overcount, len, "Where the exact count is 0 it read more than 0 for %d of %d kernels, up to %s (%s).",
                 above, none, count, m->variant[worst]);
    }
    if (n_missed)
        snprintf(missed, len, "It read under half the exact count for %s.", names);
}

int report_write_conflicts_notes(const struct report_model *m, struct page_output *out, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)], overcount[512], missed[512];
    conflicts_notes(m, overcount, missed, sizeof overcount);
    FILE *f = report_open(out->dir, "conflicts_notes.gp", path, sizeof path, e);
    if (!f)
        return e->code;
    report_put_variable(f, "conflicts_overcount_note", overcount);
    report_put_variable(f, "conflicts_missed_note", missed);
    return report_close(f, path, e);
}

/* How validate.csv judged a check, from its bounds: exact, a range, or a lower bound alone (the naive transpose's
 * DRAM counts), as factors of the expected value; the bounds themselves where there is none (the L2 ceiling, judged
 * by order). */
static void rule_cell(char *cell, size_t len, double expected, double lower, double upper)
{
    double slack = 1e-6 * fmax(1.0, fabs(expected));
    if (fabs(lower - expected) <= slack && fabs(upper - expected) <= slack)
        snprintf(cell, len, "exact");
    else if (isnan(expected) || expected == 0)
        snprintf(cell, len, "%.6g to %.6g", lower, upper);
    else if (isnan(upper) || isinf(upper))
        snprintf(cell, len, "≥ %.3g × expected", lower / expected);
    else
        snprintf(cell, len, "%.3g to %.3g × expected", lower / expected, upper / expected);
}

/* The measured value against the expected one: how close the check came. */
static void deviation_cell(char *cell, size_t len, double expected, double measured)
{
    if (measured == expected)
        snprintf(cell, len, "0 %%");
    else if (isnan(expected) || isnan(measured) || expected == 0)
        snprintf(cell, len, "-");
    else
        snprintf(cell, len, "%+.1f %%", 100.0 * (measured - expected) / expected);
}

enum validate_cell { V_KERNEL, V_PARAMETER, V_METRIC, V_EXPECTED, V_LOWER, V_UPPER, V_MEASURED, V_STATUS, V_CELLS };

/* The units of the checked metrics: those validate/metrics.csv records (CUPTI's, or the catalog's for a derived
 * metric), a ceiling's own; none for a count of the source group (exact conflicts), which metrics.csv lacks. */
struct validate_units {
    struct csv_table metrics;
    int loaded, metric, unit;
};

static int load_units(const struct results_folder *r, struct validate_units *u, struct error *e)
{
    char dir[PATH_JOINED(PATH_LEN)];
    memset(u, 0, sizeof *u);
    snprintf(dir, sizeof dir, "%s/validate", r->dir);
    if (results_read_optional(dir, &metrics_csv, &u->metrics, &u->loaded, e)) {
        u->loaded = 0; /* the reader freed it */
        return e->code;
    }
    return u->loaded && (schema_column(&u->metrics, &metrics_csv, METRICS_METRIC, &u->metric, e) ||
                         schema_column(&u->metrics, &metrics_csv, METRICS_UNIT, &u->unit, e));
}

static const char *unit_of(const struct validate_units *u, const char *metric)
{
    for (int c = 0; c < CEILING_COUNT; ++c)
        if (strcmp(metric, ceiling_key((enum ceiling)c)) == 0)
            return ceiling_unit((enum ceiling)c);
    for (int row = 0; u->loaded && row < u->metrics.rows; ++row)
        if (strcmp(csv_table_text(&u->metrics, row, u->metric), metric) == 0)
            return csv_table_text(&u->metrics, row, u->unit);
    return "";
}

/* A case of the diagnosis corpus (a cause expected, issue 40): the cause planted against the first finding's, with
 * its estimated gain and, against the fixed sibling, the measured one. Returns 0 for a metric's row. */
static int corpus_case_row(FILE *f, const struct csv_table *t, const int *col, int row, struct error *e)
{
    int expected = schema_column_or_none(t, &validate_csv, VALIDATE_EXPECTED_CAUSE);
    int found = schema_column_or_none(t, &validate_csv, VALIDATE_FOUND_CAUSE);
    int estimated = schema_column_or_none(t, &validate_csv, VALIDATE_ESTIMATED_GAIN_PCT);
    int measured = schema_column_or_none(t, &validate_csv, VALIDATE_MEASURED_GAIN_PCT);
    double estimated_pct, measured_pct;
    char gains[64];
    if (expected < 0 || !*csv_table_text(t, row, expected))
        return 0;
    if (csv_table_real(t, row, estimated, &estimated_pct, e) || csv_table_real(t, row, measured, &measured_pct, e))
        return -1;
    char estimate[16];
    report_format_gain(estimate, sizeof estimate, estimated_pct);
    snprintf(gains, sizeof gains, isnan(measured_pct) ? "est. %s %% gain" : "est. %s %%, measured %.0f %%", estimate,
             measured_pct);
    for (int c = V_KERNEL; c <= V_METRIC; ++c)
        report_put_cell(f, csv_table_text(t, row, col[c]), 0);
    report_put_cell(f, "-", 0);
    report_put_cell(f, csv_table_text(t, row, expected), 0);
    report_put_cell(f, "first finding", 0);
    report_put_cell(f, csv_table_text(t, row, found), 0);
    report_put_cell(f, gains, 0);
    report_put_cell(f, csv_table_text(t, row, col[V_STATUS]), 1);
    return 1;
}

static int validate_row(FILE *f, const struct csv_table *t, const int *col, int row, const struct validate_units *u,
                        struct error *e)
{
    double expected, lower, upper, measured;
    char rule[64], deviation[32];
    int corpus = corpus_case_row(f, t, col, row, e);
    if (corpus)
        return corpus < 0 ? e->code : 0;
    if (csv_table_real(t, row, col[V_EXPECTED], &expected, e) || csv_table_real(t, row, col[V_LOWER], &lower, e) ||
        csv_table_real(t, row, col[V_UPPER], &upper, e) || csv_table_real(t, row, col[V_MEASURED], &measured, e))
        return e->code;
    rule_cell(rule, sizeof rule, expected, lower, upper);
    deviation_cell(deviation, sizeof deviation, expected, measured);
    for (int c = V_KERNEL; c <= V_METRIC; ++c)
        report_put_cell(f, csv_table_text(t, row, col[c]), 0);
    report_put_cell(f, unit_of(u, csv_table_text(t, row, col[V_METRIC])), 0);
    report_put_cell(f, isnan(expected) ? "-" : csv_table_text(t, row, col[V_EXPECTED]), 0);
    report_put_cell(f, rule, 0);
    report_put_cell(f, csv_table_text(t, row, col[V_MEASURED]), 0);
    report_put_cell(f, deviation, 0);
    report_put_cell(f, csv_table_text(t, row, col[V_STATUS]), 1);
    return 0;
}

static int validate_page(const struct csv_table *t, const int *col, int page, const struct validate_units *u,
                         const char *dir, struct error *e)
{
    char name[64], path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(name, sizeof name, "validate-%d.tsv", page + 1);
    FILE *f = report_open(dir, name, path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("kernel\tparameter\tmetric\tunit\texpected\trule\tmeasured\tvs expected\tcheck\n", f);
    int first = page * REPORT_VALIDATE_ROWS_PER_PAGE;
    for (int row = first; row < t->rows && row < first + REPORT_VALIDATE_ROWS_PER_PAGE && !e->code; ++row)
        validate_row(f, t, col, row, u, e);
    return e->code ? (fclose(f), e->code) : report_close(f, path, e);
}

/* Why the ceilings judged on the ground-truth pages are not the roofline's roofs: --validate measures them again
 * in its own process, while the roofline draws those of the run itself (or the datasheet's, where it measured
 * none). The largest difference says how much the measurement moved between the two. */
static int ceilings_note(const struct report_model *m, const struct csv_table *t, const int *col, char *note,
                         size_t len, struct error *e)
{
    double worst = -1, main_value = NAN, validate_value = NAN;
    int judged = 0, worst_ceiling = 0;
    *note = '\0';
    for (int row = 0; row < t->rows; ++row)
        for (int c = 0; c < CEILING_COUNT; ++c) {
            double measured, run;
            if (strcmp(csv_table_text(t, row, col[V_METRIC]), ceiling_key((enum ceiling)c)) != 0)
                continue;
            if (csv_table_real(t, row, col[V_MEASURED], &measured, e) ||
                results_environment_number(m->r, ceiling_key((enum ceiling)c), &run, e))
                return e->code;
            ++judged;
            if (!isnan(run) && fabs(measured - run) / run > worst) {
                worst = fabs(measured - run) / run;
                worst_ceiling = c, main_value = run, validate_value = measured;
            }
        }
    if (judged && worst < 0)
        snprintf(note, len, "The roofline draws the datasheet's figures instead: the run it draws measured no "
                            "ceilings.");
    else if (judged)
        snprintf(note, len,
                 "The roofline draws the ceilings its own run measured; --validate measured these again: they differ "
                 "by %.1f %% at most (%s, %.6g against %.6g %s).",
                 100.0 * worst, ceiling_label((enum ceiling)worst_ceiling), main_value, validate_value,
                 ceiling_unit((enum ceiling)worst_ceiling));
    return 0;
}

/* The ground-truth check of --validate, REPORT_VALIDATE_ROWS_PER_PAGE rows a page; no page for a run without it. */
int report_write_validate(const struct report_model *m, struct page_output *out, struct error *e)
{
    static const enum validate_column columns[V_CELLS] = {
        VALIDATE_KERNEL, VALIDATE_PARAMETER, VALIDATE_METRIC,   VALIDATE_EXPECTED,
        VALIDATE_LOWER,  VALIDATE_UPPER,     VALIDATE_MEASURED, VALIDATE_STATUS};
    const struct csv_table *t = &m->r->validate;
    int col[V_CELLS], passes = 0, pages = (t->rows + REPORT_VALIDATE_ROWS_PER_PAGE - 1) / REPORT_VALIDATE_ROWS_PER_PAGE;
    char note[512];
    out->copies = 0;
    if (!m->r->has_validate)
        return 0;
    if (t->rows == 0)
        return error_set(e, EXIT_USAGE, "%s: no rows", t->path);
    for (int c = 0; c < V_CELLS; ++c)
        if (schema_column(t, &validate_csv, columns[c], &col[c], e))
            return e->code;
    if (report_page_numbered(out, "validate_page", pages, e))
        return e->code;
    fprintf(out->variables, "validate_pages = %d\n", pages);
    for (int row = 0; row < t->rows; ++row)
        passes += strcmp(csv_table_text(t, row, col[V_STATUS]), "pass") == 0;
    struct validate_units units;
    if (load_units(m->r, &units, e) == 0)
        for (int page = 0; page < pages && !e->code; ++page)
            validate_page(t, col, page, &units, out->dir, e);
    if (units.loaded)
        csv_table_free(&units.metrics);
    if (e->code || ceilings_note(m, t, col, note, sizeof note, e))
        return e->code;
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = report_open(out->dir, "validate.gp", path, sizeof path, e);
    if (!f)
        return e->code;
    fprintf(f, "validate_result = \"%d of %d checks passed\"\n", passes, t->rows);
    report_put_variable(f, "validate_ceilings_note", note);
    return report_close(f, path, e);
}

/* A unit that may be drawn, and its time in the base (its median times its samples; 0 where either is not a
 * number). */
struct candidate_bar {
    double base_ms;
    int row;
};

static double base_time(const struct csv_table *t, int row, int median, int samples)
{
    double ms = median < 0 ? 0 : strtod(csv_table_text(t, row, median), NULL);
    double n = samples < 0 ? 0 : strtod(csv_table_text(t, row, samples), NULL);
    return isfinite(ms * n) ? ms * n : 0;
}

/* Most time first; a tie keeps the file's order. */
static int by_base_time(const void *a, const void *b)
{
    const struct candidate_bar *x = a, *y = b;
    return x->base_ms < y->base_ms ? 1 : x->base_ms > y->base_ms ? -1 : x->row - y->row;
}

/* Which rows the page draws (shown[row]), how many: all of a comparison of COMPARE_BARS_MAX units or fewer; of a
 * larger one (a program's hundred kernels, whose bars and names ran together), every SLOWER, FASTER and FAILED unit,
 * then those of most time in the base that have an interval (a unit of too few samples has none, and its change of
 * two samples set the scale). Returns how many, or -1 when memory ran out. */
static int choose_bars(const struct csv_table *t, bool *shown)
{
    int verdict = csv_table_column_or_none(t, "verdict"), low = csv_table_column_or_none(t, "interval_low_pct");
    int median = csv_table_column_or_none(t, "base_median_ms"), samples = csv_table_column_or_none(t, "base_samples");
    int n = 0, candidates = 0;
    struct candidate_bar *bar = malloc(((size_t)t->rows + 1) * sizeof *bar);
    if (!bar)
        return -1;
    for (int row = 0; row < t->rows; ++row) {
        const char *v = verdict < 0 ? "" : csv_table_text(t, row, verdict);
        bool decided = strcmp(v, "SLOWER") == 0 || strcmp(v, "FASTER") == 0 || strcmp(v, "FAILED") == 0;
        shown[row] = t->rows <= COMPARE_BARS_MAX || decided;
        n += shown[row];
        if (!shown[row] && low >= 0 && *csv_table_text(t, row, low))
            bar[candidates++] = (struct candidate_bar){base_time(t, row, median, samples), row};
    }
    qsort(bar, (size_t)candidates, sizeof *bar, by_base_time);
    for (int i = 0; i < candidates && n < COMPARE_BARS_MAX; ++i, ++n)
        shown[bar[i].row] = true;
    free(bar);
    return n;
}

int report_compare_table(const char *compare_path, const char *dir, struct error *e)
{
    char path[PATH_IN_FOLDER_LEN];
    struct csv_table t;
    if (results_read_written(compare_path, &compare_csv, COMPARE_FLOOR_PCT, &t, e))
        return e->code;
    bool *shown = malloc(((size_t)t.rows + 1) * sizeof *shown);
    int n = shown ? choose_bars(&t, shown) : -1;
    FILE *f = n < 0 ? NULL : report_open(dir, "compare.tsv", path, sizeof path, e);
    if (n < 0)
        error_set(e, EXIT_RUNTIME, "out of memory");
    for (int row = -1; f && row < t.rows; ++row)
        for (int column = 0; column < t.columns && (row < 0 || shown[row]); ++column)
            fprintf(f, "%s%c", row < 0 ? t.header[column] : csv_table_text(&t, row, column),
                    column + 1 < t.columns ? '\t' : '\n');
    if (f && !report_close(f, path, e) && (f = report_open(dir, "compare-variables.gp", path, sizeof path, e))) {
        fprintf(f, "compare_units = %d\ncompare_shown = %d\n", t.rows, n);
        report_close(f, path, e);
    }
    free(shown);
    csv_table_free(&t);
    return e->code;
}

/* A comparison's compare.csv (--compare) as the table of its page; no page without one. */
int report_write_compare(const struct report_model *m, struct page_output *out, struct error *e)
{
    out->copies = m->compare_path != NULL;
    return m->compare_path ? report_compare_table(m->compare_path, out->dir, e) : 0;
}

/* What every page may read (bars.tsv, variables.gp's run-wide part), then every page's own tables and variables. */
static int write_data(const struct report_model *m, const char *dir, const char *note, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    if (write_bars(m, dir, e))
        return e->code;
    FILE *f = report_open(dir, "variables.gp", path, sizeof path, e);
    if (!f)
        return e->code;
    if (write_run_variables(f, m, note, e) || report_write_pages(m, dir, f, e)) {
        fclose(f);
        return e->code;
    }
    return report_close(f, path, e);
}

int report_data_write(const struct results_folder *r, const char *out_dir, const char *note,
                      const char *compare_path, enum kernel_grouping grouping, struct error *e)
{
    struct report_model m;
    if (report_model_build(r, grouping, &m, e))
        return e->code;
    m.compare_path = compare_path;
    write_data(&m, out_dir, note, e);
    report_model_free(&m);
    return e->code;
}
