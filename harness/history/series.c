#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../profile/metric_catalog.h"
#include "../results/schema.h"
#include "series.h"

/* The summary's columns that the code and the size alone fix, beside the catalog's deterministic metrics. */
static const enum summary_column exact_summary_columns[] = {
    SUMMARY_SHARED_CONFLICTS_EXACT, SUMMARY_GLOBAL_EXCESS_SECTORS, SUMMARY_REGISTERS_PER_THREAD,
    SUMMARY_STATIC_SMEM_BYTES,      SUMMARY_DYNAMIC_SMEM_BYTES,    SUMMARY_THREADS_PER_BLOCK,
};

static int pick_gpu(struct store *s, const char *gpu, struct series_set *set, struct error *e)
{
    int found;
    if (gpu) {
        snprintf(set->gpu, sizeof set->gpu, "%s", gpu);
        return 0;
    }
    if (store_value(s, "SELECT gpu_name FROM run ORDER BY time_utc DESC, id DESC LIMIT 1", 0, NULL, set->gpu,
                    (int)sizeof set->gpu, &found, e))
        return e->code;
    if (!found)
        return error_set(e, EXIT_USAGE, "%s: no runs recorded (memscope-history add RESULTS records one)",
                         store_name(s));
    return 0;
}

static int no_such_gpu(struct store *s, const char *gpu, struct error *e)
{
    struct store_rows gpus;
    char list[512] = "";
    if (store_run(s, "SELECT DISTINCT gpu_name FROM run ORDER BY gpu_name", 0, NULL, &gpus, e))
        return e->code;
    for (int row = 0, used = 0; row < gpus.rows && used < (int)sizeof list; ++row)
        used += snprintf(list + used, sizeof list - (size_t)used, "%s%s", row ? ", " : "", store_cell(&gpus, row, 0));
    store_rows_free(&gpus);
    return error_set(e, EXIT_USAGE, "%s: no run on %s; GPUs recorded: %s", store_name(s), gpu, *list ? list : "none");
}

static int load_runs(struct store *s, struct series_set *set, struct error *e)
{
    const char *gpu = set->gpu;
    if (store_run(s, "SELECT git_commit, git_dirty, time_utc FROM run WHERE gpu_name = $1 ORDER BY time_utc, id", 1,
                  &gpu, &set->run_rows, e))
        return e->code;
    if (set->run_rows.rows == 0)
        return no_such_gpu(s, gpu, e);
    set->runs = set->run_rows.rows;
    set->run = calloc((size_t)set->runs, sizeof *set->run);
    if (!set->run)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (int i = 0; i < set->runs; ++i)
        set->run[i] = (struct series_run){store_cell(&set->run_rows, i, 0), store_cell(&set->run_rows, i, 1),
                                          store_cell(&set->run_rows, i, 2)};
    return 0;
}

struct product_shape series_job_shape(const struct store_rows *r, int row, int rows_column)
{
    return (struct product_shape){atoi(store_cell(r, row, rows_column)), atoi(store_cell(r, row, rows_column + 1)),
                                  atoi(store_cell(r, row, rows_column + 2))};
}

static bool clean(const struct series_run *r)
{
    return !strcmp(r->dirty, "0");
}

/* Points come ordered by job (first recorded first), then by run; a point without a median (a variant that
 * failed its check) is no point of the series. The job's shape takes three columns from P_SHAPE: rows, cols, inner. */
enum point_column { P_JOB, P_VARIANT, P_PRECISION, P_SHAPE, P_RUN = P_SHAPE + 3, P_RESULT, P_MEDIAN, P_Q1, P_Q3 };

static int start_job(struct series_set *set, int row, struct error *e)
{
    const struct store_rows *p = &set->point_rows;
    int at = set->points;
    if (grow_for_one_more((void **)&set->job, (size_t)set->jobs, sizeof *set->job))
        return error_set(e, EXIT_RUNTIME, "out of memory");
    set->job[set->jobs++] = (struct job_series){
        .variant = store_cell(p, row, P_VARIANT),
        .precision = store_cell(p, row, P_PRECISION),
        .shape = series_job_shape(p, row, P_SHAPE),
        .run = set->point_run + at,
        .result_id = set->point_result + at,
        .median_ms = set->point_median + at,
        .q1_ms = set->point_q1 + at,
        .q3_ms = set->point_q3 + at,
        .may_step = set->point_may_step + at,
    };
    return 0;
}

static int add_point(struct series_set *set, int row, struct error *e)
{
    const struct store_rows *p = &set->point_rows;
    if (!store_cell(p, row, P_MEDIAN))
        return 0;
    if ((set->jobs == 0 || strcmp(store_cell(p, row, P_JOB), store_cell(p, row - 1, P_JOB))) && start_job(set, row, e))
        return e->code;
    struct job_series *job = &set->job[set->jobs - 1];
    int i = job->n++, run = atoi(store_cell(p, row, P_RUN));
    ++set->points;
    job->run[i] = run;
    job->result_id[i] = store_cell(p, row, P_RESULT);
    job->median_ms[i] = store_real(p, row, P_MEDIAN);
    job->q1_ms[i] = store_real(p, row, P_Q1);
    job->q3_ms[i] = store_real(p, row, P_Q3);
    const struct series_run *before = i ? &set->run[job->run[i - 1]] : NULL, *now = &set->run[run];
    job->may_step[i] = before && (strcmp(before->commit, now->commit) || !clean(before) || !clean(now));
    return 0;
}

/* Each point names its run by its place in the runs' order (load_runs'); $2..$4 are the shape's rows, cols and
 * inner, rows 0 for every shape. */
static const char points_sql[] =
    "SELECT j.id, j.name, j.precision, j.rows, j.cols, j.\"inner\", r.position, res.id, res.median_ms, res.q1_ms,"
    " res.q3_ms "
    "FROM result res JOIN job j ON j.id = res.job_id "
    "JOIN (SELECT id, ROW_NUMBER() OVER (ORDER BY time_utc, id) - 1 AS position FROM run WHERE gpu_name = $1) r "
    "ON r.id = res.run_id "
    "WHERE CAST($2 AS INTEGER) = 0 OR (j.rows = $2 AND j.cols = $3 AND j.\"inner\" = $4) ORDER BY j.id, r.position";

static int load_points(struct store *s, struct product_shape shape, struct series_set *set, struct error *e)
{
    char extents[3][16];
    product_shape_extents(shape, extents);
    const char *params[] = {set->gpu, extents[0], extents[1], extents[2]};
    if (store_run(s, points_sql, 4, params, &set->point_rows, e))
        return e->code;
    size_t n = (size_t)set->point_rows.rows + 1;
    set->point_run = malloc(n * sizeof *set->point_run);
    set->point_result = malloc(n * sizeof *set->point_result);
    set->point_median = malloc(n * sizeof *set->point_median);
    set->point_q1 = malloc(n * sizeof *set->point_q1);
    set->point_q3 = malloc(n * sizeof *set->point_q3);
    set->point_may_step = malloc(n * sizeof *set->point_may_step);
    if (!set->point_run || !set->point_result || !set->point_median || !set->point_q1 || !set->point_q3 ||
        !set->point_may_step)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (int row = 0; row < set->point_rows.rows; ++row)
        if (add_point(set, row, e))
            return e->code;
    return 0;
}

int series_load(struct store *s, const char *gpu, struct product_shape shape, struct series_set *set,
                struct error *e)
{
    memset(set, 0, sizeof *set);
    if (pick_gpu(s, gpu, set, e) || load_runs(s, set, e) || load_points(s, shape, set, e))
        series_free(set);
    return e->code;
}

void series_free(struct series_set *set)
{
    free(set->run);
    free(set->job);
    free(set->point_run);
    free(set->point_result);
    free(set->point_median);
    free(set->point_q1);
    free(set->point_q3);
    free(set->point_may_step);
    store_rows_free(&set->run_rows);
    store_rows_free(&set->point_rows);
    memset(set, 0, sizeof *set);
}

/* The logarithms of a job's medians: steps are ratios. */
static double *logarithms(const struct job_series *job)
{
    double *y = malloc((size_t)(job->n + 1) * sizeof *y);
    for (int i = 0; y && i < job->n; ++i)
        y[i] = log(job->median_ms[i]);
    return y;
}

int series_steps(const struct job_series *job, const struct step_rules *rules, struct step *steps, int max,
                 double *level_ms, int *found, struct error *e)
{
    double *y = logarithms(job);
    *found = y ? steps_find(y, job->may_step, job->n, rules, steps, max, level_ms) : -1;
    for (int i = 0; level_ms && *found >= 0 && i < job->n; ++i)
        level_ms[i] = exp(level_ms[i]);
    free(y);
    return *found < 0 ? error_set(e, EXIT_RUNTIME, "out of memory") : 0;
}

int series_noise(const struct job_series *job, double *noise, struct error *e)
{
    double *y = logarithms(job);
    int failed = !y || steps_noise(y, job->n, noise);
    free(y);
    return failed ? error_set(e, EXIT_RUNTIME, "out of memory") : 0;
}

/* ---- the counters that moved ---- */

static bool deterministic(const char *name)
{
    const char *metrics[COLLECTED_METRIC_COUNT + DERIVED_METRIC_COUNT];
    int n = deterministic_metrics(metrics, (int)(sizeof metrics / sizeof *metrics));
    for (int i = 0; i < n; ++i)
        if (!strcmp(metrics[i], name))
            return true;
    for (size_t i = 0; i < sizeof exact_summary_columns / sizeof *exact_summary_columns; ++i)
        if (!strcmp(summary_csv.columns[exact_summary_columns[i]], name))
            return true;
    return false;
}

/* A result's deterministic counts: the summary's figures first, then each metric summed over the kernels of its
 * call (a name in both, as shared_excess_wavefronts_estimate is, counts once: the figure's). */
static const char counts_sql[] = "SELECT name, value, 0 FROM figure WHERE result_id = $1 "
                                 "UNION ALL SELECT name, sum(value), 1 FROM metric WHERE result_id = $1 GROUP BY name "
                                 "ORDER BY 3, 1";

/* More than the catalog's deterministic metrics and the summary's exact columns together. */
#define MOST_COUNTS 64

struct moved {
    const char *name;
    double before, after;
};

static double magnitude(const struct moved *m)
{
    return m->before == 0 || m->after == 0 ? INFINITY : fabs(log(m->after / m->before));
}

static int by_magnitude(const void *a, const void *b)
{
    double x = magnitude(a), y = magnitude(b);
    return (x < y) - (x > y);
}

static void describe_change(const struct moved *m, char *text, size_t size)
{
    double ratio = m->after / m->before;
    if (m->before == 0 || m->after == 0)
        snprintf(text, size, "%s %.6g -> %.6g", m->name, m->before, m->after);
    else if (ratio >= 2 || ratio <= 0.5)
        snprintf(text, size, "%s x%.3g", m->name, ratio);
    else
        snprintf(text, size, "%s %+.1f %%", m->name, 100 * (ratio - 1));
}

static double count_of(const struct store_rows *r, const char *name, bool *present)
{
    for (int row = 0; row < r->rows; ++row)
        if (!strcmp(store_cell(r, row, 0), name)) {
            *present = store_cell(r, row, 1) != NULL;
            return store_real(r, row, 1);
        }
    *present = false;
    return NAN;
}

static int list_moved(const struct store_rows *before, const struct store_rows *after, char *text, int size)
{
    struct moved moved[MOST_COUNTS];
    int n = 0, compared = 0;
    for (int row = 0; row < before->rows && n < (int)(sizeof moved / sizeof *moved); ++row) {
        const char *name = store_cell(before, row, 0);
        bool in_before, in_after, seen = false;
        for (int earlier = 0; earlier < row; ++earlier)
            seen |= !strcmp(store_cell(before, earlier, 0), name);
        if (seen || !deterministic(name))
            continue;
        double x = count_of(before, name, &in_before), y = count_of(after, name, &in_after);
        if (!in_before || !in_after)
            continue;
        ++compared;
        if (fabs(y - x) > 1e-9 * fmax(fabs(x), fabs(y)))
            moved[n++] = (struct moved){name, x, y};
    }
    qsort(moved, (size_t)n, sizeof *moved, by_magnitude);
    int used = snprintf(text, (size_t)size, "%s", compared ? (n ? "" : "none moved") : "not collected on both sides");
    for (int i = 0; i < n && used < size; ++i) {
        char change[192];
        describe_change(&moved[i], change, sizeof change);
        used += snprintf(text + used, (size_t)(size - used), "%s%s", i ? ", " : "", change);
    }
    return 0;
}

int series_moved_counters(struct store *s, const char *before, const char *after, char *text, int size, struct error *e)
{
    struct store_rows a, b;
    if (store_run(s, counts_sql, 1, &before, &a, e))
        return e->code;
    if (!store_run(s, counts_sql, 1, &after, &b, e)) {
        list_moved(&a, &b, text, size);
        store_rows_free(&b);
    }
    store_rows_free(&a);
    return e->code;
}
