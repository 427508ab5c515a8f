#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/paths.h"
#include "../common/palette.h"
#include "../results/schema.h"
#include "history.h"

/* The columns copied from the summary, under the same names; the first of them an older summary may lack. */
#define FIRST_COPIED HISTORY_VARIANT
#define FIRST_OPTIONAL HISTORY_Q1_MS
/* The environment keys that make up a run's key, in the history's first columns. */
static const char *const run_key[FIRST_COPIED] = {"git_commit", "git_dirty", "gpu_name", "time_utc"};

#define MAX_RUNS 1024
#define MAX_SERIES 64

static const char *env(const struct results_folder *r, const char *key)
{
    const char *value = results_environment(r, key);
    return value ? value : "";
}

static int already_recorded(const struct csv_table *h, const struct results_folder *run)
{
    for (int row = 0; row < h->rows; ++row)
        if (!strcmp(csv_table_text(h, row, HISTORY_COMMIT), env(run, run_key[HISTORY_COMMIT])) &&
            !strcmp(csv_table_text(h, row, HISTORY_GPU_NAME), env(run, run_key[HISTORY_GPU_NAME])) &&
            !strcmp(csv_table_text(h, row, HISTORY_TIME_UTC), env(run, run_key[HISTORY_TIME_UTC])))
            return 1;
    return 0;
}

static int check_existing(const char *path, const struct results_folder *run, struct error *e)
{
    struct csv_table h;
    if (csv_table_read(path, &h, e))
        return e->code;
    int columns_ok = schema_header_matches(&h, &history_csv);
    int recorded = columns_ok && already_recorded(&h, run);
    csv_table_free(&h);
    if (!columns_ok)
        return error_set(e, EXIT_USAGE, "%s:1: not a memscope history (header differs)", path);
    if (recorded)
        return error_set(e, EXIT_USAGE, "%s: the run of %s at %s is recorded already", path,
                         env(run, "git_commit"), env(run, "time_utc"));
    return 0;
}

int history_add(const char *history_path, const struct results_folder *run, struct error *e)
{
    struct stat st;
    int exists = stat(history_path, &st) == 0;
    int col[HISTORY_COLUMNS];
    for (int c = FIRST_COPIED; c < HISTORY_COLUMNS; ++c)
        if ((col[c] = csv_table_column_or_none(&run->summary, history_csv.columns[c])) < 0 && c < FIRST_OPTIONAL)
            return error_set(e, EXIT_USAGE, "%s:1: no column '%s'", run->summary.path, history_csv.columns[c]);
    if (exists && check_existing(history_path, run, e))
        return e->code;
    FILE *f = fopen(history_path, "a");
    if (!f)
        return error_set(e, EXIT_OUTPUT, "cannot open %s: %s", history_path, strerror(errno));
    struct csv out;
    schema_on_stream(&out, f, history_path, &history_csv, !exists);
    for (int row = 0; row < run->summary.rows; ++row) {
        for (int c = 0; c < FIRST_COPIED; ++c)
            csv_text(&out, env(run, run_key[c]));
        for (int c = FIRST_COPIED; c < HISTORY_COLUMNS; ++c)
            csv_text(&out, col[c] < 0 ? "" : csv_table_text(&run->summary, row, col[c]));
        csv_end_row(&out);
    }
    return csv_close(&out, e);
}

/* The history's rows of one GPU, grouped into runs in the order they were recorded. */
struct history_view {
    const struct csv_table *t;
    int run_of_row[1 << 16];
    int first_row[MAX_RUNS];
    int runs;
    const char *series[MAX_SERIES];
    int serieses;
    int width;
};

static int same_run(const struct csv_table *t, int a, int b)
{
    return !strcmp(csv_table_text(t, a, HISTORY_COMMIT), csv_table_text(t, b, HISTORY_COMMIT)) &&
           !strcmp(csv_table_text(t, a, HISTORY_GPU_NAME), csv_table_text(t, b, HISTORY_GPU_NAME)) &&
           !strcmp(csv_table_text(t, a, HISTORY_TIME_UTC), csv_table_text(t, b, HISTORY_TIME_UTC));
}

/* Adds w to the ascending list widths[*n] unless it is there (or the list is full). */
static void add_width(int *widths, int *n, int most, int w)
{
    int at = 0;
    while (at < *n && widths[at] < w)
        ++at;
    if ((at < *n && widths[at] == w) || *n == most)
        return;
    memmove(widths + at + 1, widths + at, (size_t)(*n - at) * sizeof *widths);
    widths[at] = w;
    ++*n;
}

/* A width no run of the view measured would chart nothing but NaN, on which gnuplot fails: refused at once,
 * naming the widths there are. */
static int check_width(const struct history_view *v, const char *gpu, struct error *e)
{
    const struct csv_table *t = v->t;
    int widths[64], n = 0;
    for (int row = 0; row < t->rows; ++row) {
        int w;
        if (v->run_of_row[row] < 0)
            continue;
        if (csv_table_int(t, row, HISTORY_WIDTH, &w, e))
            return e->code;
        if (w == v->width)
            return 0;
        add_width(widths, &n, (int)(sizeof widths / sizeof *widths), w);
    }
    char list[512] = "";
    for (int i = 0, used = 0; i < n && used < (int)sizeof list; ++i)
        used += snprintf(list + used, sizeof list - (size_t)used, "%s%d", i ? ", " : "", widths[i]);
    return error_set(e, EXIT_USAGE, "--width %d: no run on %s in %s measured it; widths recorded: %s", v->width, gpu,
                     t->path, list);
}

static int build_view(const struct csv_table *t, const char *gpu, int width, struct history_view *v, struct error *e)
{
    memset(v, 0, sizeof *v);
    v->t = t;
    if (t->rows == 0 || t->rows > (int)(sizeof v->run_of_row / sizeof v->run_of_row[0]))
        return error_set(e, EXIT_USAGE, "%s: %s", t->path, t->rows ? "too many rows" : "no runs recorded");
    if (!gpu)
        gpu = csv_table_text(t, t->rows - 1, HISTORY_GPU_NAME);
    for (int row = 0; row < t->rows && !e->code; ++row) {
        v->run_of_row[row] = -1;
        if (strcmp(csv_table_text(t, row, HISTORY_GPU_NAME), gpu))
            continue;
        if (v->runs == 0 || !same_run(t, row, v->first_row[v->runs - 1])) {
            if (v->runs == MAX_RUNS)
                return error_set(e, EXIT_USAGE, "%s: more than %d runs", t->path, MAX_RUNS);
            v->first_row[v->runs++] = row;
        }
        v->run_of_row[row] = v->runs - 1;
    }
    if (v->runs == 0)
        return error_set(e, EXIT_USAGE, "%s: no run on %s", t->path, gpu);
    /* By default the largest width of the latest run: the one its chart can show. */
    for (int row = v->first_row[v->runs - 1]; !width && row < t->rows && !e->code; ++row) {
        int w;
        if (v->run_of_row[row] == v->runs - 1 && !csv_table_int(t, row, HISTORY_WIDTH, &w, e) && w > v->width)
            v->width = w;
    }
    if (e->code)
        return e->code;
    if (width) {
        v->width = width;
        if (check_width(v, gpu, e))
            return e->code;
    }
    for (int row = 0; row < t->rows; ++row) {
        const char *name = csv_table_text(t, row, HISTORY_VARIANT);
        int known = 0;
        for (int s = 0; s < v->serieses; ++s)
            known |= !strcmp(v->series[s], name);
        if (!known && v->run_of_row[row] >= 0 && v->serieses < MAX_SERIES)
            v->series[v->serieses++] = name;
    }
    return 0;
}

static int value_at(const struct history_view *v, int run, const char *variant, int column, double *value,
                    struct error *e)
{
    *value = NAN;
    for (int row = v->first_row[run]; row < v->t->rows && v->run_of_row[row] == run; ++row) {
        int width;
        if (strcmp(csv_table_text(v->t, row, HISTORY_VARIANT), variant))
            continue;
        if (csv_table_int(v->t, row, HISTORY_WIDTH, &width, e))
            return e->code;
        if (width == v->width)
            return csv_table_real(v->t, row, column, value, e);
    }
    return 0;
}

static void put(FILE *f, double x)
{
    if (isnan(x))
        fputs("\tNaN", f);
    else
        fprintf(f, "\t%.6g", x);
}

/* One variant's block: run, median, q1, q3, load efficiency, exact conflicts, DRAM GB/s, step, step label. */
static int write_series(FILE *f, const struct history_view *v, const char *variant, double floor, struct error *e)
{
    double previous[3] = {NAN, NAN, NAN};
    fprintf(f, "# %s\nrun\tmedian_ms\tq1_ms\tq3_ms\tload_eff_pct\tconflicts_exact\tdram_gbs\tstep\tstep_label\n",
            variant);
    for (int run = 0; run < v->runs && !e->code; ++run) {
        double x[7];
        for (int c = 0; c < 7; ++c)
            if (value_at(v, run, variant, HISTORY_MEDIAN_MS + c, &x[c], e))
                return e->code;
        double median = x[0], q1 = x[1], q3 = x[2], change = median / previous[0] - 1;
        int step = !isnan(change) && fabs(change) > floor && (q1 > previous[2] || q3 < previous[1]);
        fprintf(f, "%d", run);
        put(f, median);
        put(f, q1);
        put(f, q3);
        put(f, x[4]);
        put(f, x[5]);
        put(f, x[6]);
        fprintf(f, "\t%d\t%+.1f%%\n", step, step ? 100 * change : 0.0);
        if (!isnan(median))
            memcpy(previous, x, sizeof previous);
    }
    fputs("\n\n", f);
    return 0;
}

/* Text from the history inside a gnuplot string: a quote, a backslash or a line break would end the string or the
 * command, and what followed would run as gnuplot (whose system() runs shell commands); gnuplot runs a backquoted
 * `...` as a shell command even inside a string. */
static void put_gnuplot_text(FILE *f, const char *text, size_t most)
{
    for (size_t i = 0; i < most && text[i]; ++i) {
        unsigned char c = (unsigned char)text[i];
        fputc(c == '"' || c == '`' ? '\'' : c == '\\' ? '/' : c < ' ' || c == 0x7f ? ' ' : c, f);
    }
}

static int write_variables(const char *dir, const struct history_view *v, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(path, sizeof path, "%s/variables.gp", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
    const struct csv_table *t = v->t;
    fputs("gpu_name = \"", f);
    put_gnuplot_text(f, csv_table_text(t, v->first_row[0], HISTORY_GPU_NAME), SIZE_MAX);
    fprintf(f, "\"\nhistory_width = %d\nrun_count = %d\nseries_count = %d\nseries_names = \"", v->width, v->runs,
            v->serieses);
    for (int s = 0; s < v->serieses; ++s) {
        fputs(s ? " " : "", f);
        put_gnuplot_text(f, v->series[s], SIZE_MAX);
    }
    fputs("\"\nset xtics (", f);
    for (int run = 0; run < v->runs; ++run) {
        int row = v->first_row[run];
        fputs(run ? ", \"" : "\"", f);
        put_gnuplot_text(f, csv_table_text(t, row, HISTORY_COMMIT), 7);
        fprintf(f, "%s\" %d", strcmp(csv_table_text(t, row, HISTORY_DIRTY), "0") ? "*" : "", run);
    }
    fputs(")\n", f);
    palette_write_linetypes(f, v->serieses);
    int failed = ferror(f);
    if (fclose(f) || failed)
        return error_set(e, EXIT_OUTPUT, "writing %s failed", path);
    return 0;
}

int history_chart_data(const char *history_path, const char *gpu, int width, double floor, const char *out_dir,
                       struct error *e)
{
    static struct history_view v;
    struct csv_table t;
    if (csv_table_read(history_path, &t, e))
        return e->code;
    if (!schema_header_matches(&t, &history_csv))
        error_set(e, EXIT_USAGE, "%s:1: not a memscope history (header differs)", history_path);
    if (!e->code && !build_view(&t, gpu, width, &v, e) && !write_variables(out_dir, &v, e)) {
        char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
        snprintf(path, sizeof path, "%s/history.tsv", out_dir);
        FILE *f = fopen(path, "w");
        if (!f)
            error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
        for (int s = 0; f && s < v.serieses && !e->code; ++s)
            write_series(f, &v, v.series[s], floor, e);
        if (f && (fclose(f) != 0) && !e->code)
            error_set(e, EXIT_OUTPUT, "writing %s failed", path);
    }
    csv_table_free(&t);
    return e->code;
}
