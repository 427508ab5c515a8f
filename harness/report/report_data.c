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
#include "report_data.h"

#define MAX_WIDTHS 64

/* The variants in the order the run measured them (the registry's), and its widths ascending. */
struct report_model {
    const struct results_folder *r;
    const char *variant[MAX_VARIANTS];
    const char *precision[MAX_VARIANTS];
    int variants;
    int width[MAX_WIDTHS];
    int widths;
    int roofline_points; /* written by write_roofline */
};

/* Speedups are over the naive kernel of the same precision; "% of cuBLAS" is against cuBLAS in it. */
static const struct {
    const char *precision, *baseline, *reference;
} precision_anchors[] = {
    {"fp32", "naive", "cublas"},
    {"fp64", "naive_fp64", "cublas_fp64"},
};


static int add_width(struct report_model *m, int width, struct error *e)
{
    int at = 0;
    while (at < m->widths && m->width[at] < width)
        ++at;
    if (at < m->widths && m->width[at] == width)
        return 0;
    if (m->widths == MAX_WIDTHS)
        return error_set(e, EXIT_USAGE, "%s: more than %d widths", m->r->summary.path, MAX_WIDTHS);
    memmove(&m->width[at + 1], &m->width[at], (size_t)(m->widths - at) * sizeof m->width[0]);
    m->width[at] = width;
    ++m->widths;
    return 0;
}

static int variant_index(const struct report_model *m, const char *name)
{
    for (int i = 0; i < m->variants; ++i)
        if (strcmp(m->variant[i], name) == 0)
            return i;
    return -1;
}

/* The summary columns the report reads: each must hold a number or nothing, in every row. */
static const enum summary_column numeric_columns[] = {
    SUMMARY_MEDIAN_MS,           SUMMARY_GFLOPS,
    SUMMARY_FLOP,                SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT,
    SUMMARY_SHARED_CONFLICTS_HW, SUMMARY_SHARED_CONFLICTS_EXACT,
    SUMMARY_DRAM_GBS,            SUMMARY_DRAM_PCT_OF_PEAK,
};

static int check_numbers(const struct csv_table *t, struct error *e)
{
    for (size_t c = 0; c < sizeof numeric_columns / sizeof numeric_columns[0]; ++c) {
        int col = schema_column_or_none(t, &summary_csv, numeric_columns[c]);
        for (int row = 0; col >= 0 && row < t->rows; ++row) {
            double value;
            if (csv_table_real(t, row, col, &value, e))
                return e->code;
        }
    }
    return 0;
}

static int build_model(const struct results_folder *r, struct report_model *m, struct error *e)
{
    memset(m, 0, sizeof *m);
    m->r = r;
    if (check_numbers(&r->summary, e))
        return e->code;
    for (int row = 0; row < r->summary.rows && !e->code; ++row) {
        const char *name = csv_table_text(&r->summary, row, r->col_variant);
        if (variant_index(m, name) < 0) {
            if (m->variants == MAX_VARIANTS)
                return error_set(e, EXIT_USAGE, "%s: more than %d variants", r->summary.path, MAX_VARIANTS);
            m->precision[m->variants] = csv_table_text(&r->summary, row, r->col_precision);
            m->variant[m->variants++] = name;
        }
        add_width(m, r->summary_width[row], e);
    }
    return e->code;
}

/* A summary value; NAN when the row, the column (an older run) or the value is missing. The column was
 * checked when the model was built (numeric_columns), so it holds a number or nothing. */
static double summary_value(const struct report_model *m, const char *variant, int width, enum summary_column id)
{
    int row = results_summary_row(m->r, variant, width), col = schema_column_or_none(&m->r->summary, &summary_csv, id);
    struct error ignored = {0};
    double value = NAN;
    if (row >= 0 && col >= 0)
        csv_table_real(&m->r->summary, row, col, &value, &ignored);
    return value;
}

static int passed(const struct report_model *m, const char *variant, int width)
{
    int row = results_summary_row(m->r, variant, width);
    return row >= 0 && strcmp(csv_table_text(&m->r->summary, row, m->r->col_status), "passed") == 0;
}

static const char *anchor(const char *precision, int reference)
{
    for (size_t i = 0; i < sizeof precision_anchors / sizeof precision_anchors[0]; ++i)
        if (strcmp(precision_anchors[i].precision, precision) == 0)
            return reference ? precision_anchors[i].reference : precision_anchors[i].baseline;
    return "";
}

/* Median time of the anchor variant of this precision at this width (NAN if it did not run or failed). */
static double anchor_ms(const struct report_model *m, int v, int width, int reference)
{
    const char *name = anchor(m->precision[v], reference);
    return passed(m, name, width) ? summary_value(m, name, width, SUMMARY_MEDIAN_MS) : NAN;
}

static FILE *open_output(const char *dir, const char *name, char *path, size_t size, struct error *e)
{
    snprintf(path, size, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
    return f;
}

static int close_output(FILE *f, const char *path, struct error *e)
{
    int failed = ferror(f);
    if (fclose(f) != 0 || failed)
        return error_set(e, EXIT_OUTPUT, "writing %s failed", path);
    return 0;
}

/* Tab-separated cells must not hold tabs or newlines; gnuplot strings must not hold a quote or a backslash (which
 * end them) or a backquote (gnuplot runs `...` as a shell command, even inside a string). */
static void put_clean(FILE *f, const char *text)
{
    for (const char *p = text; *p; ++p)
        fputc(*p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p == '"' || *p == '`' ? '\'' : *p == '\\' ? '/' : *p, f);
}

static void format_number(char *out, size_t size, double value, const char *format)
{
    if (isnan(value))
        snprintf(out, size, "not collected");
    else
        snprintf(out, size, format, value);
}

/* Counts with thousands separators: 32,505,856. */
static void format_count(char *out, size_t size, double value)
{
    char digits[64];
    if (isnan(value)) {
        snprintf(out, size, "not collected");
        return;
    }
    snprintf(digits, sizeof digits, "%.0f", fabs(value));
    size_t n = strlen(digits), at = 0;
    if (value < 0 && at + 1 < size)
        out[at++] = '-';
    for (size_t i = 0; i < n && at + 2 < size; ++i) {
        if (i > 0 && (n - i) % 3 == 0)
            out[at++] = ',';
        out[at++] = digits[i];
    }
    out[at] = '\0';
}

struct peak_rates report_peak_rates(const struct results_folder *r, struct error *e)
{
    /* FP32 and FP64 results per SM per clock (an FMA is two), by compute capability. */
    static const struct {
        const char *capability;
        double fp32, fp64;
    } per_sm[] = {
        {"7.0", 128, 64},  {"7.5", 128, 4},  {"8.0", 128, 64},  {"8.6", 256, 4},
        {"8.9", 256, 4},   {"9.0", 256, 128}, {"10.0", 256, 128}, {"12.0", 256, 4},
    };
    struct peak_rates p = {NAN, NAN, NAN};
    const char *cc = results_environment(r, "compute_capability");
    double sms, sm_mhz, mem_mhz, bus;
    if (results_environment_number(r, "sm_count", &sms, e) ||
        results_environment_number(r, "sm_clock_max_mhz", &sm_mhz, e) ||
        results_environment_number(r, "memory_clock_max_mhz", &mem_mhz, e) ||
        results_environment_number(r, "memory_bus_width_bits", &bus, e))
        return p;
    for (size_t i = 0; cc && i < sizeof per_sm / sizeof per_sm[0]; ++i)
        if (strcmp(per_sm[i].capability, cc) == 0) {
            p.fp32_gflops = per_sm[i].fp32 * sms * sm_mhz / 1000.0;
            p.fp64_gflops = per_sm[i].fp64 * sms * sm_mhz / 1000.0;
        }
    /* Two transfers per memory clock, as the driver reports the clock of HBM. */
    p.dram_gbs = 2.0 * mem_mhz * 1e6 * bus / 8.0 / 1e9;
    return p;
}

static void put_variable(FILE *f, const char *name, const char *value)
{
    fprintf(f, "%s = \"", name);
    put_clean(f, value ? value : "unknown");
    fputs("\"\n", f);
}

static void put_number(FILE *f, const char *name, double value)
{
    if (isnan(value))
        fprintf(f, "%s = NaN\n", name);
    else
        fprintf(f, "%s = %.6g\n", name, value);
}

static int validate_pages(const struct results_folder *r)
{
    if (!r->has_validate)
        return 0;
    return (r->validate.rows + REPORT_VALIDATE_ROWS_PER_PAGE - 1) / REPORT_VALIDATE_ROWS_PER_PAGE;
}

static void write_sizes_and_variants(FILE *f, const struct report_model *m)
{
    fputs("sizes = \"", f);
    for (int w = 0; w < m->widths; ++w)
        fprintf(f, "%s%d", w ? " " : "", m->width[w]);
    fputs("\"\nvariant_names = \"", f);
    for (int v = 0; v < m->variants; ++v) {
        fputs(v ? " " : "", f);
        put_clean(f, m->variant[v]);
    }
    fprintf(f, "\"\nvariant_count = %d\nlargest_width = %d\n", m->variants, m->width[m->widths - 1]);
    palette_write_linetypes(f, m->variants);
}

static int write_variables(const struct report_model *m, const char *dir, const char *note, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    struct peak_rates peak = report_peak_rates(m->r, e);
    if (e->code)
        return e->code;
    FILE *f = open_output(dir, "variables.gp", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("# Written by memscope-report-data; loaded by scripts/report/*.gp.\n", f);
    put_variable(f, "gpu_name", results_environment(m->r, "gpu_name"));
    put_variable(f, "source_note", note);
    put_number(f, "fp32_peak_gflops", peak.fp32_gflops);
    put_number(f, "fp64_peak_gflops", peak.fp64_gflops);
    put_number(f, "dram_peak_gbs", peak.dram_gbs);
    fprintf(f, "validate_pages = %d\nroofline_points = %d\n", validate_pages(m->r), m->roofline_points);
    write_sizes_and_variants(f, m);
    return close_output(f, path, e);
}

static void title_row(FILE *f, const char *label, const char *value)
{
    put_clean(f, label);
    fputc('\t', f);
    put_clean(f, value && *value ? value : "unknown");
    fputc('\n', f);
}

static const char *env_or(const struct results_folder *r, const char *key, const char *fallback)
{
    const char *value = results_environment(r, key);
    return value && *value ? value : fallback;
}

static int write_title(const struct report_model *m, const char *dir, struct error *e)
{
    const struct results_folder *r = m->r;
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)], value[1024];
    FILE *f = open_output(dir, "title.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("recorded\tfrom environment.csv\n", f);
    title_row(f, "GPU", env_or(r, "gpu_name", "unknown"));
    snprintf(value, sizeof value, "%s (CUDA %s)", env_or(r, "driver_version", "unknown"),
             env_or(r, "cuda_driver_version", "?"));
    title_row(f, "Driver", value);
    snprintf(value, sizeof value, "runtime %s, nvcc %s, built for %s", env_or(r, "cuda_runtime_version", "?"),
             env_or(r, "nvcc_version", "?"), env_or(r, "cuda_arch", "?"));
    title_row(f, "CUDA", value);
    snprintf(value, sizeof value, "SM %s MHz at start, %s MHz at end (max %s); memory %s MHz (max %s)",
             env_or(r, "sm_clock_mhz_start", "?"), env_or(r, "sm_clock_mhz_end", "?"),
             env_or(r, "sm_clock_max_mhz", "?"), env_or(r, "memory_clock_mhz_start", "?"),
             env_or(r, "memory_clock_max_mhz", "?"));
    title_row(f, "Clocks", value);
    const char *dirty = env_or(r, "git_dirty", "unknown");
    snprintf(value, sizeof value, "%s%s", env_or(r, "git_commit", "unknown"),
             strcmp(dirty, "0") == 0   ? ""
             : strcmp(dirty, "1") == 0 ? " with uncommitted changes"
                                       : " (whether it had uncommitted changes is not known)");
    title_row(f, "Commit", value);
    title_row(f, "Date (UTC)", env_or(r, "time_utc", "unknown"));
    title_row(f, "Command", env_or(r, "command_line", "unknown"));
    title_row(f, "Results", r->dir);
    return close_output(f, path, e);
}

static void put_cell(FILE *f, const char *text, int last)
{
    put_clean(f, text);
    fputc(last ? '\n' : '\t', f);
}

/* The efficiency metric counts LDG instructions only, and so do the instrumented sector and request counts: a
 * kernel that loads through cp.async (LDGSTS), as cuBLAS does, shows 0 %, which would read as "all wasted". */
static const char *load_efficiency_note(double efficiency)
{
    if (isnan(efficiency))
        return "not collected";
    if (efficiency == 0)
        return "no LDG";
    return "-";
}

static void summary_row(FILE *f, const struct report_model *m, int v, int width)
{
    const char *name = m->variant[v];
    int row = results_summary_row(m->r, name, width);
    char cell[7][64];
    double median = summary_value(m, name, width, SUMMARY_MEDIAN_MS);
    double reference = anchor_ms(m, v, width, 1);
    format_number(cell[0], sizeof cell[0], median, "%.4g");
    format_number(cell[1], sizeof cell[1], summary_value(m, name, width, SUMMARY_GFLOPS), "%.0f");
    format_number(cell[2], sizeof cell[2], 100.0 * reference / median, "%.1f");
    double efficiency = summary_value(m, name, width, SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT);
    const char *note = load_efficiency_note(efficiency);
    format_number(cell[3], sizeof cell[3], efficiency, "%.1f");
    if (*note != '-')
        snprintf(cell[3], sizeof cell[3], "%s", note);
    format_count(cell[4], sizeof cell[4], summary_value(m, name, width, SUMMARY_SHARED_CONFLICTS_EXACT));
    format_number(cell[5], sizeof cell[5], summary_value(m, name, width, SUMMARY_DRAM_GBS), "%.0f");
    if (isnan(median))
        snprintf(cell[0], sizeof cell[0], "not timed");
    if (isnan(reference) || isnan(median))
        snprintf(cell[2], sizeof cell[2], "-");
    snprintf(cell[6], sizeof cell[6], "%s", csv_table_text(&m->r->summary, row, m->r->col_status));
    fprintf(f, "%d\t", v + 1);
    put_cell(f, name, 0);
    put_cell(f, m->precision[v], 0);
    for (int c = 0; c < 7; ++c)
        put_cell(f, cell[c], c == 6);
}

static int write_summary_tables(const struct report_model *m, const char *dir, struct error *e)
{
    for (int w = 0; w < m->widths && !e->code; ++w) {
        char name[64], path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
        snprintf(name, sizeof name, "summary-%d.tsv", m->width[w]);
        FILE *f = open_output(dir, name, path, sizeof path, e);
        if (!f)
            return e->code;
        fputs("0\tvariant\tprecision\tmedian ms\tGFLOP/s\t% of cuBLAS\tload eff. %\tconflicts (exact)\tDRAM GB/s"
              "\tcheck\n",
              f);
        for (int v = 0; v < m->variants; ++v)
            if (results_summary_row(m->r, m->variant[v], m->width[w]) >= 0)
                summary_row(f, m, v, m->width[w]);
        close_output(f, path, e);
    }
    return e->code;
}

/* One block per variant (gnuplot's index v): width and GFLOP/s of the passing runs. */
static int write_performance(const struct report_model *m, const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = open_output(dir, "performance.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    for (int v = 0; v < m->variants; ++v) {
        fprintf(f, "# %s\nwidth\tgflops\n", m->variant[v]);
        int points = 0;
        for (int w = 0; w < m->widths; ++w)
            if (passed(m, m->variant[v], m->width[w]) && ++points)
                fprintf(f, "%d\t%.6g\n", m->width[w], summary_value(m, m->variant[v], m->width[w], SUMMARY_GFLOPS));
        if (!points)
            fprintf(f, "%d\tNaN\n", m->width[0]);
        fputs("\n\n", f);
    }
    return close_output(f, path, e);
}

static void put_value(FILE *f, double value, int last)
{
    if (isnan(value))
        fputs("NaN", f);
    else
        fprintf(f, "%.6g", value);
    fputc(last ? '\n' : '\t', f);
}

/* Per-variant values at the largest width, one row per variant in registry order. */
static int write_bars(const struct report_model *m, const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    int width = m->width[m->widths - 1];
    FILE *f = open_output(dir, "bars.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("position\tlinetype\tvariant\tload_eff_pct\tconflicts_hw\tconflicts_exact\tdram_gbs\tdram_pct"
          "\tspeedup_over_naive\tpct_of_cublas\tload_eff_note\n",
          f);
    for (int v = 0; v < m->variants; ++v) {
        const char *name = m->variant[v];
        double median = passed(m, name, width) ? summary_value(m, name, width, SUMMARY_MEDIAN_MS) : NAN;
        fprintf(f, "%d\t%d\t", v, v + 1);
        put_cell(f, name, 0);
        double efficiency = summary_value(m, name, width, SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT);
        const char *note = load_efficiency_note(efficiency);
        put_value(f, *note == '-' ? efficiency : NAN, 0);
        put_value(f, summary_value(m, name, width, SUMMARY_SHARED_CONFLICTS_HW), 0);
        put_value(f, summary_value(m, name, width, SUMMARY_SHARED_CONFLICTS_EXACT), 0);
        put_value(f, summary_value(m, name, width, SUMMARY_DRAM_GBS), 0);
        put_value(f, summary_value(m, name, width, SUMMARY_DRAM_PCT_OF_PEAK), 0);
        put_value(f, anchor_ms(m, v, width, 0) / median, 0);
        put_value(f, 100.0 * anchor_ms(m, v, width, 1) / median, 0);
        put_cell(f, note, 1);
    }
    return close_output(f, path, e);
}

/* FLOP counted from the executed instructions; where that misses most of the work
 * (tensor-core instructions are not counted), the work model's 2 W^3, flagged. */
static int roofline_point(struct report_model *m, int v, int width, FILE *f, struct error *e)
{
    const char *name = m->variant[v];
    double fp32, fp64, dram, nominal = summary_value(m, name, width, SUMMARY_FLOP);
    if (results_metric_sum(m->r, name, width, DERIVED(FLOP_FP32), &fp32, e) ||
        results_metric_sum(m->r, name, width, DERIVED(FLOP_FP64), &fp64, e) ||
        results_metric_sum(m->r, name, width, DERIVED(DRAM_BYTES), &dram, e))
        return e->code;
    double counted = (isnan(fp32) ? 0 : fp32) + (isnan(fp64) ? 0 : fp64);
    int from_model = counted < 0.5 * nominal;
    double flop = from_model ? nominal : counted;
    double seconds = summary_value(m, name, width, SUMMARY_MEDIAN_MS) * 1e-3;
    if (!passed(m, name, width) || isnan(dram) || dram <= 0 || isnan(flop))
        return 0;
    ++m->roofline_points;
    fprintf(f, "%d\t", v + 1);
    put_cell(f, name, 0);
    fprintf(f, "%d\t%.6g\t%.6g\t%d\t", width, flop / dram, flop / seconds / 1e9, from_model);
    put_cell(f, width == m->width[m->widths - 1] ? name : "-", 1);
    return 0;
}

static int write_roofline(struct report_model *m, const char *dir, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = open_output(dir, "roofline.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("linetype\tvariant\twidth\tflop_per_dram_byte\tgflops\tflop_from_work_model\tlabel\n", f);
    for (int v = 0; v < m->variants && !e->code; ++v)
        for (int w = 0; w < m->widths && !e->code; ++w)
            roofline_point(m, v, m->width[w], f, e);
    if (e->code) {
        fclose(f);
        return e->code;
    }
    return close_output(f, path, e);
}

static int validate_page(const struct csv_table *t, const int *col, int page, const char *dir, struct error *e)
{
    char name[64], path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(name, sizeof name, "validate-%d.tsv", page + 1);
    FILE *f = open_output(dir, name, path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("kernel\tparameter\tmetric\texpected\tmeasured\tcheck\n", f);
    int first = page * REPORT_VALIDATE_ROWS_PER_PAGE;
    for (int row = first; row < t->rows && row < first + REPORT_VALIDATE_ROWS_PER_PAGE; ++row)
        for (int c = 0; c < 6; ++c)
            put_cell(f, csv_table_text(t, row, col[c]), c == 5);
    return close_output(f, path, e);
}

static int write_validate(const struct report_model *m, const char *dir, struct error *e)
{
    static const char *const columns[6] = {"kernel", "parameter", "metric", "expected", "measured", "status"};
    const struct csv_table *t = &m->r->validate;
    int col[6], passes = 0;
    if (!m->r->has_validate)
        return 0;
    if (t->rows == 0)
        return error_set(e, EXIT_USAGE, "%s: no rows", t->path);
    for (int c = 0; c < 6; ++c)
        if (csv_table_column(t, columns[c], &col[c], e))
            return e->code;
    for (int row = 0; row < t->rows; ++row)
        passes += strcmp(csv_table_text(t, row, col[5]), "pass") == 0;
    for (int page = 0; page < validate_pages(m->r) && !e->code; ++page)
        validate_page(t, col, page, dir, e);
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    FILE *f = open_output(dir, "validate.gp", path, sizeof path, e);
    if (!f)
        return e->code;
    fprintf(f, "validate_result = \"%d of %d checks passed\"\n", passes, t->rows);
    return close_output(f, path, e);
}

/* The PNG pages to render, in order: name, gnuplot script, the setup that script expects. */
static int write_pages(const struct report_model *m, const char *dir, bool with_compare, struct error *e)
{
    static const char *const charts[] = {"performance", "efficiency", "conflicts", "dram", "roofline", "speedup"};
    char path[PATH_IN_FOLDER_LEN];
    FILE *f = open_output(dir, "pages.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("title\ttitle.gp\t\n", f);
    for (int w = 0; w < m->widths; ++w)
        fprintf(f, "summary-%d\tsummary.gp\tsummary_width=%d\n", m->width[w], m->width[w]);
    for (size_t c = 0; c < sizeof charts / sizeof charts[0]; ++c)
        fprintf(f, "%s\t%s.gp\t\n", charts[c], charts[c]);
    for (int page = 1; page <= validate_pages(m->r); ++page)
        fprintf(f, "validate-%d\tvalidate.gp\tvalidate_page=%d\n", page, page);
    if (with_compare)
        fprintf(f, "compare\tcompare.gp\tcompare_file='%s/compare.csv'\n", dir);
    return close_output(f, path, e);
}

/* A comparison's compare.csv, checked against the schema and copied beside the tables for its page. */
static int copy_compare(const char *compare_path, const char *dir, struct error *e)
{
    struct csv_table t;
    char path[PATH_IN_FOLDER_LEN], buffer[1 << 16];
    if (csv_table_read(compare_path, &t, e))
        return e->code;
    int matches = schema_header_matches(&t, &compare_csv);
    csv_table_free(&t);
    if (!matches)
        return error_set(e, EXIT_USAGE, "%s:1: not a compare.csv written by memscope-compare", compare_path);
    FILE *in = fopen(compare_path, "rb"), *out = in ? open_output(dir, compare_csv.file, path, sizeof path, e) : NULL;
    if (!in)
        return error_set(e, EXIT_USAGE, "cannot read %s: %s", compare_path, strerror(errno));
    for (size_t n; out && (n = fread(buffer, 1, sizeof buffer, in)) > 0;)
        fwrite(buffer, 1, n, out);
    fclose(in);
    return out ? close_output(out, path, e) : e->code;
}

int report_data_write(const struct results_folder *r, const char *out_dir, const char *note,
                      const char *compare_path, struct error *e)
{
    struct report_model m;
    if (build_model(r, &m, e))
        return e->code;
    if (write_title(&m, out_dir, e) || write_summary_tables(&m, out_dir, e) || write_performance(&m, out_dir, e) ||
        write_bars(&m, out_dir, e) || write_roofline(&m, out_dir, e) || write_validate(&m, out_dir, e) ||
        write_variables(&m, out_dir, note, e) || (compare_path && copy_compare(compare_path, out_dir, e)) ||
        write_pages(&m, out_dir, compare_path != NULL, e))
        return e->code;
    return 0;
}
