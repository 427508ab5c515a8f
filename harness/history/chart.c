/* The data of the history chart (scripts/report/history.gp): one GPU at one shape, every run on the x axis. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../common/palette.h"
#include "../common/paths.h"
#include "history.h"
#include "series.h"

#define MOST_STEPS 256

/* By default the largest shape the latest run measured: the one its chart can show (or, where every variant of
 * the latest run failed its check, the largest of any run). */
static struct product_shape default_shape(const struct series_set *set)
{
    struct product_shape latest = {0}, any = {0};
    for (int j = 0; j < set->jobs; ++j) {
        const struct job_series *job = &set->job[j];
        if (job->n && job->run[job->n - 1] == set->runs - 1 && product_shape_compare(job->shape, latest) > 0)
            latest = job->shape;
        if (product_shape_compare(job->shape, any) > 0)
            any = job->shape;
    }
    return latest.rows ? latest : any;
}

/* A shape no run measured would chart nothing but NaN, on which gnuplot fails: refused at once, naming the
 * widths (and shapes) there are, as --width takes them. */
static int check_shape(const struct store *s, const struct series_set *set, struct product_shape shape,
                       struct error *e)
{
    struct product_shape shapes[64];
    int n = 0;
    char list[512] = "", text[PRODUCT_SHAPE_LEN];
    for (int j = 0; j < set->jobs; ++j) {
        if (product_shape_equal(set->job[j].shape, shape))
            return 0;
        product_shapes_insert(shapes, &n, (int)(sizeof shapes / sizeof *shapes), set->job[j].shape); /* the first 64 */
    }
    for (int i = 0, used = 0; i < n && used < (int)sizeof list; ++i)
        used += snprintf(list + used, sizeof list - (size_t)used, "%s%s", i ? ", " : "",
                         product_shape_text(shapes[i], text));
    return error_set(e, EXIT_USAGE, "--width %s: no run on %s in %s measured it; widths recorded: %s",
                     product_shape_text(shape, text), set->gpu, store_name(s), list);
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

static int closed(FILE *f, const char *path, struct error *e)
{
    int failed = ferror(f);
    if (fclose(f) || failed)
        return error_set(e, EXIT_OUTPUT, "writing %s failed", path);
    return 0;
}

/* history_width is the square's width (0 for a rectangle), history_label the shape as a title names it. */
static int write_variables(const char *dir, const struct series_set *set, struct product_shape shape,
                           struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(path, sizeof path, "%s/variables.gp", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
    int series = 0;
    char label[PRODUCT_SHAPE_LEN];
    fputs("gpu_name = \"", f);
    put_gnuplot_text(f, set->gpu, SIZE_MAX);
    fputs("\"\nseries_names = \"", f);
    for (int j = 0; j < set->jobs; ++j)
        if (product_shape_equal(set->job[j].shape, shape)) {
            fputs(series++ ? " " : "", f);
            put_gnuplot_text(f, set->job[j].variant, SIZE_MAX);
        }
    fprintf(f, "\"\nhistory_width = %d\nhistory_label = \"%s\"\nrun_count = %d\nseries_count = %d\nset xtics (",
            product_shape_width(shape), product_shape_label(shape, label), set->runs, series);
    for (int run = 0; run < set->runs; ++run) {
        fputs(run ? ", \"" : "\"", f);
        put_gnuplot_text(f, set->run[run].commit, 7);
        fprintf(f, "%s\" %d", strcmp(set->run[run].dirty, "0") ? "*" : "", run);
    }
    fputs(")\n", f);
    palette_write_linetypes(f, series);
    return closed(f, path, e);
}

static void put(FILE *f, double x)
{
    if (isnan(x))
        fputs("\tNaN", f);
    else
        fprintf(f, "\t%.6g", x);
}

/* The figures the chart draws below the times, of one result: load efficiency, exact conflicts, DRAM GB/s. */
static const char *const drawn_figures[] = {"global_load_efficiency_pct", "shared_conflicts_exact", "dram_gbs"};

static int put_figures(FILE *f, struct store *s, const char *result, struct error *e)
{
    struct store_rows r;
    if (store_run(s, "SELECT name, value FROM figure WHERE result_id = $1", 1, &result, &r, e))
        return e->code;
    for (size_t i = 0; i < sizeof drawn_figures / sizeof *drawn_figures; ++i) {
        double value = NAN;
        for (int row = 0; row < r.rows; ++row)
            if (!strcmp(store_cell(&r, row, 0), drawn_figures[i]))
                value = store_real(&r, row, 1);
        put(f, value);
    }
    store_rows_free(&r);
    return 0;
}

/* One job's block: run, median, q1, q3, load efficiency, exact conflicts, DRAM GB/s, step, step label. */
static int write_job(FILE *f, struct store *s, const struct series_set *set, const struct job_series *job,
                     const struct step_rules *rules, struct error *e)
{
    struct step steps[MOST_STEPS];
    int found;
    if (series_steps(job, rules, steps, MOST_STEPS, NULL, &found, e))
        return e->code;
    fprintf(f, "# %s\nrun\tmedian_ms\tq1_ms\tq3_ms\tload_eff_pct\tconflicts_exact\tdram_gbs\tstep\tstep_label\n",
            job->variant);
    for (int run = 0, i = 0, k = 0; run < set->runs && !e->code; ++run) {
        int here = i < job->n && job->run[i] == run, step = here && k < found && steps[k].at == i;
        fprintf(f, "%d", run);
        put(f, here ? job->median_ms[i] : NAN);
        put(f, here ? job->q1_ms[i] : NAN);
        put(f, here ? job->q3_ms[i] : NAN);
        if (here)
            put_figures(f, s, job->result_id[i], e);
        else
            fputs("\tNaN\tNaN\tNaN", f);
        fprintf(f, "\t%d\t%+.1f%%\n", step, step ? 100 * steps[k].change : 0.0);
        k += step;
        i += here;
    }
    fputs("\n\n", f);
    return e->code;
}

static int write_series(const char *dir, struct store *s, const struct series_set *set, struct product_shape shape,
                        double floor, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    struct step_rules rules = {floor, STEPS_DEFAULT_PENALTY};
    snprintf(path, sizeof path, "%s/history.tsv", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
    for (int j = 0; j < set->jobs && !e->code; ++j)
        if (product_shape_equal(set->job[j].shape, shape))
            write_job(f, s, set, &set->job[j], &rules, e);
    closed(f, path, e);
    return e->code;
}

int history_chart_data(const char *target, const char *gpu, struct product_shape shape, double floor,
                       const char *out_dir, struct error *e)
{
    struct store *s;
    struct series_set set;
    if (history_open(target, 0, &s, e))
        return e->code;
    if (!series_load(s, gpu, (struct product_shape){0}, &set, e)) {
        if (!shape.rows)
            shape = default_shape(&set);
        if (!check_shape(s, &set, shape, e) && !write_variables(out_dir, &set, shape, e))
            write_series(out_dir, s, &set, shape, floor, e);
        series_free(&set);
    }
    store_close(s);
    return e->code;
}
