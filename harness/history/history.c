/* What memscope-history shows of a history: its runs, a job's series, the steps, the noise, the CSV export and
 * the chart's data. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../results/schema.h"
#include "history.h"
#include "series.h"

/* The most steps one job's series can show: far more than a reader could act on. */
#define MOST_STEPS 256

static const char runs_sql[] =
    "SELECT r.time_utc, r.git_commit, r.git_dirty, r.gpu_name, m.host, count(res.id), coalesce(sum(res.samples), 0) "
    "FROM run r JOIN machine m ON m.id = r.machine_id LEFT JOIN result res ON res.run_id = r.id "
    "GROUP BY r.id, r.time_utc, r.git_commit, r.git_dirty, r.gpu_name, m.host ORDER BY r.time_utc, r.id";

/* A commit as the outputs show it: its first 7 characters, and * for uncommitted changes. */
static void short_commit(const char *commit, const char *dirty, char *text, size_t size)
{
    snprintf(text, size, "%.7s%s", commit, strcmp(dirty, "0") ? "*" : "");
}

static int written(FILE *out, struct error *e)
{
    if (fflush(out) || ferror(out))
        return error_set(e, EXIT_OUTPUT, "writing the output failed: %s", strerror(errno));
    return 0;
}

int history_print_runs(struct store *s, FILE *out, struct error *e)
{
    struct store_rows r;
    if (store_run(s, runs_sql, 0, NULL, &r, e))
        return e->code;
    fputs("time_utc\tcommit\tgpu_name\thost\tresults\tsamples\n", out);
    for (int row = 0; row < r.rows; ++row) {
        char commit[16];
        short_commit(store_cell(&r, row, 1), store_cell(&r, row, 2), commit, sizeof commit);
        fprintf(out, "%s\t%s\t%s\t%s\t%s\t%s\n", store_cell(&r, row, 0), commit, store_cell(&r, row, 3),
                store_cell(&r, row, 4), store_cell(&r, row, 5), store_cell(&r, row, 6));
    }
    store_rows_free(&r);
    return written(out, e);
}

/* ---- the export: the history CSV's columns, numbers as the CSV writer writes them ---- */

static const char export_sql[] =
    "SELECT r.git_commit, r.git_dirty, r.gpu_name, r.time_utc, j.name, j.precision, j.width, res.samples,"
    " res.median_ms, res.q1_ms, res.q3_ms,"
    " (SELECT value FROM figure WHERE result_id = res.id AND name = 'gflops'),"
    " (SELECT value FROM figure WHERE result_id = res.id AND name = 'global_load_efficiency_pct'),"
    " (SELECT value FROM figure WHERE result_id = res.id AND name = 'shared_conflicts_exact'),"
    " (SELECT value FROM figure WHERE result_id = res.id AND name = 'dram_gbs'), j.rows, j.cols, j.\"inner\" "
    "FROM result res JOIN run r ON r.id = res.run_id JOIN job j ON j.id = res.job_id "
    "ORDER BY r.time_utc, r.id, res.id";

int history_export(struct store *s, FILE *out, struct error *e)
{
    struct store_rows r;
    struct csv csv;
    if (store_run(s, export_sql, 0, NULL, &r, e))
        return e->code;
    schema_on_stream(&csv, out, "the export", &history_csv, 1);
    for (int row = 0; row < r.rows; ++row) {
        for (int c = 0; c < HISTORY_MEDIAN_MS; ++c)
            csv_text(&csv, store_cell(&r, row, c));
        for (int c = HISTORY_MEDIAN_MS; c < HISTORY_ROWS; ++c)
            csv_real(&csv, store_real(&r, row, c));
        csv_shape(&csv, series_job_shape(&r, row, HISTORY_ROWS));
        csv_end_row(&csv);
    }
    store_rows_free(&r);
    return written(out, e); /* not csv_close, which would close the caller's stream */
}

/* ---- series, steps and noise ---- */

/* A query's shape of all zeros is every shape. */
static int wanted(const struct job_series *job, const struct history_query *q)
{
    return (!q->shape.rows || product_shape_equal(job->shape, q->shape)) &&
           (!q->variant || !strcmp(job->variant, q->variant));
}

static struct step_rules rules_of(const struct history_query *q)
{
    return (struct step_rules){q->floor, STEPS_DEFAULT_PENALTY};
}

static void put_ms(FILE *out, double x)
{
    if (isnan(x))
        fputs("\t", out);
    else
        fprintf(out, "\t%.6g", x);
}

static int print_job(FILE *out, const struct series_set *set, const struct job_series *job,
                     const struct history_query *q, struct error *e)
{
    struct step steps[MOST_STEPS];
    double *level = malloc((size_t)(job->n + 1) * sizeof *level), noise;
    int found;
    if (!level)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    struct step_rules rules = rules_of(q);
    char label[PRODUCT_SHAPE_LEN];
    if (!series_noise(job, &noise, e) && !series_steps(job, &rules, steps, MOST_STEPS, level, &found, e)) {
        fprintf(out, "# %s %s %s on %s: %d runs, between-run noise %.2f %%\n", job->variant, job->precision,
                product_shape_label(job->shape, label), set->gpu, job->n, 100 * noise);
        fputs("time_utc\tcommit\tmedian_ms\tq1_ms\tq3_ms\tlevel_ms\tstep_pct\n", out);
        for (int i = 0, k = 0; i < job->n; ++i) {
            const struct series_run *r = &set->run[job->run[i]];
            char commit[16];
            short_commit(r->commit, r->dirty, commit, sizeof commit);
            fprintf(out, "%s\t%s", r->time_utc, commit);
            put_ms(out, job->median_ms[i]);
            put_ms(out, job->q1_ms[i]);
            put_ms(out, job->q3_ms[i]);
            put_ms(out, level[i]);
            if (k < found && steps[k].at == i)
                fprintf(out, "\t%+.1f\n", 100 * steps[k++].change);
            else
                fputs("\t\n", out);
        }
    }
    free(level);
    return e->code;
}

int history_print_series(struct store *s, const struct history_query *q, FILE *out, struct error *e)
{
    struct series_set set;
    int shown = 0;
    if (series_load(s, q->gpu, q->shape, &set, e))
        return e->code;
    for (int j = 0; j < set.jobs && !e->code; ++j)
        if (wanted(&set.job[j], q) && !print_job(out, &set, &set.job[j], q, e))
            ++shown;
    if (!e->code && !shown)
        error_set(e, EXIT_USAGE, "%s: no run on %s timed %s%s", store_name(s), set.gpu,
                  q->variant ? q->variant : "a variant", q->shape.rows ? " at that size" : "");
    series_free(&set);
    return e->code ? e->code : written(out, e);
}

/* A step of one job, to be listed in run order with every job's. */
struct found_step {
    const struct job_series *job;
    struct step step;
    double noise;
};

static int in_run_order(const void *a, const void *b)
{
    const struct found_step *x = a, *y = b;
    int rx = x->job->run[x->step.at], ry = y->job->run[y->step.at];
    return rx != ry ? (rx > ry) - (rx < ry) : (x->job > y->job) - (x->job < y->job);
}

static int collect_steps(const struct series_set *set, const struct history_query *q, struct found_step **all, int *n,
                         struct error *e)
{
    struct step steps[MOST_STEPS];
    struct step_rules rules = rules_of(q);
    *n = 0;
    *all = NULL;
    for (int j = 0; j < set->jobs; ++j) {
        const struct job_series *job = &set->job[j];
        double noise;
        int found;
        if (!wanted(job, q))
            continue;
        if (series_noise(job, &noise, e) || series_steps(job, &rules, steps, MOST_STEPS, NULL, &found, e))
            return e->code;
        struct found_step *grown = realloc(*all, (size_t)(*n + found + 1) * sizeof **all);
        if (!grown)
            return error_set(e, EXIT_RUNTIME, "out of memory");
        *all = grown;
        for (int k = 0; k < found; ++k)
            (*all)[(*n)++] = (struct found_step){job, steps[k], noise};
    }
    if (*n > 1) /* none found leaves *all NULL, which qsort must not be given (UBSan, from the fuzzer) */
        qsort(*all, (size_t)*n, sizeof **all, in_run_order);
    return 0;
}

static int print_step(struct store *s, const struct series_set *set, const struct found_step *f, FILE *out,
                      struct error *e)
{
    const struct job_series *job = f->job;
    const struct series_run *r = &set->run[job->run[f->step.at]];
    char commit[16], counters[1024], noise[64], label[PRODUCT_SHAPE_LEN];
    if (series_moved_counters(s, job->result_id[f->step.at - 1], job->result_id[f->step.at], counters,
                              (int)sizeof counters, e))
        return e->code;
    short_commit(r->commit, r->dirty, commit, sizeof commit);
    if (job->n < 3)
        snprintf(noise, sizeof noise, "noise not measured in %d runs", job->n);
    else
        snprintf(noise, sizeof noise, "noise %.2f %%", 100 * f->noise);
    fprintf(out, "%s %s  %s %s %s  %+.1f %% (95 %%: %+.1f to %+.1f %%; %s)  counters: %s\n", r->time_utc, commit,
            job->variant, job->precision, product_shape_label(job->shape, label), 100 * f->step.change,
            100 * f->step.low, 100 * f->step.high, noise, counters);
    return 0;
}

int history_print_steps(struct store *s, const struct history_query *q, FILE *out, struct error *e)
{
    struct series_set set;
    struct found_step *all;
    int n;
    if (series_load(s, q->gpu, q->shape, &set, e))
        return e->code;
    if (!collect_steps(&set, q, &all, &n, e)) {
        fprintf(out,
                "# %d step%s on %s: a change of a job's level of median time beyond %.3g %%, at the commit where it "
                "starts; the deterministic counts that changed there\n",
                n, n == 1 ? "" : "s", set.gpu, 100 * q->floor);
        for (int i = 0; i < n && !print_step(s, &set, &all[i], out, e); ++i)
            ;
    }
    free(all);
    series_free(&set);
    return e->code ? e->code : written(out, e);
}

int history_print_noise(struct store *s, const struct history_query *q, FILE *out, struct error *e)
{
    struct series_set set;
    if (series_load(s, q->gpu, q->shape, &set, e))
        return e->code;
    /* The width column holds a rectangle's shape, as --width takes it. */
    fputs("variant\tprecision\twidth\truns\tnoise_pct\n", out);
    for (int j = 0; j < set.jobs && !e->code; ++j) {
        double noise;
        char size[PRODUCT_SHAPE_LEN];
        if (wanted(&set.job[j], q) && !series_noise(&set.job[j], &noise, e))
            fprintf(out, "%s\t%s\t%s\t%d\t%.3f\n", set.job[j].variant, set.job[j].precision,
                    product_shape_text(set.job[j].shape, size), set.job[j].n, 100 * noise);
    }
    series_free(&set);
    return e->code ? e->code : written(out, e);
}
