/* Recording runs: a results folder, or the rows of a history CSV, into the database in one transaction. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../csv/name_index.h"
#include "../results/product_shape.h"
#include "../results/schema.h"
#include "history.h"

/* Room for a key as text: engines number rows in 64 bits. */
#define ID_SIZE 32

/* The summary's columns that a result holds as columns of its own, named alike; its other numbers are figures. */
static const enum summary_column result_columns[] = {
    SUMMARY_STATUS,         SUMMARY_LAYOUT,   SUMMARY_REFERENCE,
    SUMMARY_SEED,           SUMMARY_SAMPLES,  SUMMARY_STOP_REASON,
    SUMMARY_MIN_MS,         SUMMARY_Q1_MS,    SUMMARY_MEDIAN_MS,
    SUMMARY_Q3_MS,          SUMMARY_MAX_MS,   SUMMARY_MEAN_MS,
    SUMMARY_STDEV_MS,       SUMMARY_CI95_REL, SUMMARY_METRICS_KERNEL,
    SUMMARY_LIMITER,        SUMMARY_EVIDENCE, SUMMARY_STALL_TOP_REASON,
    SUMMARY_OTHER_GPU_WORK,
};
#define RESULT_COLUMNS ((int)(sizeof result_columns / sizeof *result_columns))

/* A run's key, from its environment.csv: the history's key, as it was in the CSV history. */
static const char *const run_key[] = {"gpu_name", "git_commit", "time_utc"};

static const char *value_or_empty(const char *text)
{
    return text ? text : "";
}

/* A field as a parameter: an empty one is SQL NULL (not measured). */
static const char *field(const struct csv_table *t, int row, int column)
{
    const char *text = column < 0 ? "" : csv_table_text(t, row, column);
    return *text ? text : NULL;
}

/* Inserts a row (or leaves the one there: ON CONFLICT DO NOTHING) and reads its id back by its first n_key
 * parameters (PostgreSQL refuses a parameter a statement does not use). */
static int id_of(struct store *s, const char *insert, const char *select, int n, int n_key, const char *const *params,
                 char *id, struct error *e)
{
    int found;
    if (store_run(s, insert, n, params, NULL, e) || store_value(s, select, n_key, params, id, ID_SIZE, &found, e))
        return e->code;
    return found ? 0 : error_set(e, EXIT_RUNTIME, "%s: a row just recorded is not there", store_name(s));
}

static int machine_id(struct store *s, const char *host, const char *gpu, const char *uuid, char *id, struct error *e)
{
    const char *params[] = {host, gpu, uuid};
    return id_of(s, "INSERT INTO machine (host, gpu_name, gpu_uuid) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                 "SELECT id FROM machine WHERE host = $1 AND gpu_name = $2 AND gpu_uuid = $3", 3, 3, params, id, e);
}

/* A job is known by its variant, precision and shape; its width (the square's, 0 for a rectangle) goes beside. */
static int job_id(struct store *s, const char *variant, const char *precision, struct product_shape shape, char *id,
                  struct error *e)
{
    char extents[3][16], width[16];
    product_shape_extents(shape, extents);
    snprintf(width, sizeof width, "%d", product_shape_width(shape));
    const char *params[] = {variant, precision, extents[0], extents[1], extents[2], width};
    return id_of(s,
                 "INSERT INTO job (kind, name, precision, rows, cols, \"inner\", width)"
                 " VALUES ('variant', $1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                 "SELECT id FROM job WHERE kind = 'variant' AND name = $1 AND precision = $2 AND rows = $3"
                 " AND cols = $4 AND \"inner\" = $5",
                 6, 5, params, id, e);
}

/* The run's id, or "" when a run of the same key is recorded already. */
static int new_run(struct store *s, const char *machine, const char *const key[3], const char *dirty, char *id,
                   struct error *e)
{
    static const char select[] = "SELECT id FROM run WHERE gpu_name = $1 AND git_commit = $2 AND time_utc = $3";
    int found;
    const char *params[] = {key[0], key[1], key[2], machine, dirty};
    if (store_value(s, select, 3, params, id, ID_SIZE, &found, e))
        return e->code;
    if (found) {
        *id = '\0';
        return 0;
    }
    return id_of(s,
                 "INSERT INTO run (gpu_name, git_commit, time_utc, machine_id, git_dirty) VALUES ($1, $2, $3, $4, $5)",
                 select, 5, 3, params, id, e);
}

static int add_figure(struct store *s, const char *result, const char *name, const char *value, struct error *e)
{
    const char *params[] = {result, name, value};
    return value ? store_run(s, "INSERT INTO figure (result_id, name, value) VALUES ($1, $2, $3)", 3, params, NULL, e)
                 : 0;
}

/* ---- a results folder ---- */

int history_check_run(const struct results_folder *run, struct error *e)
{
    if (results_is_program(run)) /* its jobs are launches of a program's kernels, not a variant at a shape */
        return error_set(e, EXIT_USAGE, "%s: a program's profile (memscope-profile): the history records runs of "
                                        "the suite; compare two profiles with memscope-compare", run->dir);
    for (size_t k = 0; k < sizeof run_key / sizeof *run_key; ++k)
        if (!results_environment(run, run_key[k]) || !*results_environment(run, run_key[k]))
            return error_set(e, EXIT_USAGE, "%s: no %s (a run is known by its GPU, commit and start time)",
                             run->environment.path, run_key[k]);
    return 0;
}

static int add_environment(struct store *s, const struct results_folder *run, const char *id, struct error *e)
{
    const struct csv_table *t = &run->environment;
    for (int row = 0; row < t->rows && !e->code; ++row) {
        const char *params[] = {id, csv_table_text(t, row, ENVIRONMENT_KEY), csv_table_text(t, row, ENVIRONMENT_VALUE)};
        store_run(s, "INSERT INTO environment (run_id, key, value) VALUES ($1, $2, $3)", 3, params, NULL, e);
    }
    return e->code;
}

static int insert_result(struct store *s, const struct results_folder *run, int row, const char *run_id,
                         const char *job, char *id, struct error *e)
{
    char insert[1024] = "INSERT INTO result (run_id, job_id", values[512] = "VALUES ($1, $2";
    const char *params[2 + RESULT_COLUMNS] = {run_id, job};
    for (int c = 0; c < RESULT_COLUMNS; ++c) {
        size_t used = strlen(insert), filled = strlen(values);
        snprintf(insert + used, sizeof insert - used, ", %s", summary_csv.columns[result_columns[c]]);
        snprintf(values + filled, sizeof values - filled, ", $%d", c + 3);
        params[2 + c] =
            field(&run->summary, row, schema_column_or_none(&run->summary, &summary_csv, result_columns[c]));
    }
    size_t used = strlen(insert);
    snprintf(insert + used, sizeof insert - used, ") %s)", values);
    return id_of(s, insert, "SELECT id FROM result WHERE run_id = $1 AND job_id = $2", 2 + RESULT_COLUMNS, 2, params,
                 id, e);
}

static int is_result_column(int id)
{
    for (int c = 0; c < RESULT_COLUMNS; ++c)
        if ((int)result_columns[c] == id)
            return 1;
    return id == SUMMARY_VARIANT || id == SUMMARY_PRECISION || id == SUMMARY_WIDTH || id == SUMMARY_ROWS ||
           id == SUMMARY_COLS || id == SUMMARY_INNER;
}

static int add_figures(struct store *s, const struct results_folder *run, int row, const char *result, struct error *e)
{
    for (int id = 0; id < SUMMARY_COLUMNS && !e->code; ++id)
        if (!is_result_column(id))
            add_figure(s, result, summary_csv.columns[id],
                       field(&run->summary, row, schema_column_or_none(&run->summary, &summary_csv, id)), e);
    return e->code;
}

static int add_samples(struct store *s, const struct results_folder *run, int row, const char *result, struct error *e)
{
    const struct csv_table *t = &run->samples;
    int n, time;
    if (schema_column(t, &samples_csv, SAMPLES_SAMPLE, &n, e) ||
        schema_column(t, &samples_csv, SAMPLES_TIME_MS, &time, e))
        return e->code;
    for (int i = 0; i < t->rows && !e->code; ++i)
        if (run->sample_summary_row[i] == row) {
            const char *params[] = {result, csv_table_text(t, i, n), csv_table_text(t, i, time)};
            store_run(s, "INSERT INTO sample (result_id, sample, time_ms) VALUES ($1, $2, $3)", 3, params, NULL, e);
        }
    return e->code;
}

static int add_metrics(struct store *s, const struct results_folder *run, int row, const char *result, struct error *e)
{
    const struct csv_table *t = &run->metrics;
    int unit = run->has_metrics ? schema_column_or_none(t, &metrics_csv, METRICS_UNIT) : -1;
    const char *variant = csv_table_text(&run->summary, row, run->col_variant);
    for (int i = results_first_metric_row(run, variant, run->summary_shape[row]); i >= 0 && !e->code;
         i = run->metric_next[i]) {
        double value;
        if (csv_table_real(t, i, run->metric_col_value, &value, e))
            return e->code;
        const char *params[] = {result, csv_table_text(t, i, run->metric_col_kernel),
                                csv_table_text(t, i, run->metric_col_metric), field(t, i, run->metric_col_value),
                                unit < 0 ? "" : csv_table_text(t, i, unit)};
        store_run(s, "INSERT INTO metric (result_id, kernel, name, value, unit) VALUES ($1, $2, $3, $4, $5)", 5, params,
                  NULL, e);
    }
    return e->code;
}

static int add_results(struct store *s, const struct results_folder *run, const char *run_id, struct error *e)
{
    const struct csv_table *t = &run->summary;
    for (int row = 0; row < t->rows && !e->code; ++row) {
        char job[ID_SIZE], result[ID_SIZE];
        if (job_id(s, csv_table_text(t, row, run->col_variant), csv_table_text(t, row, run->col_precision),
                   run->summary_shape[row], job, e) ||
            insert_result(s, run, row, run_id, job, result, e) || add_figures(s, run, row, result, e) ||
            add_samples(s, run, row, result, e))
            return e->code;
        add_metrics(s, run, row, result, e);
    }
    return e->code;
}

static int add_run(struct store *s, const struct results_folder *run, int *added, struct error *e)
{
    char machine[ID_SIZE], id[ID_SIZE];
    const char *key[3] = {results_environment(run, run_key[0]), results_environment(run, run_key[1]),
                          results_environment(run, run_key[2])};
    if (machine_id(s, value_or_empty(results_environment(run, "host")), key[0],
                   value_or_empty(results_environment(run, "gpu_uuid")), machine, e) ||
        new_run(s, machine, key, value_or_empty(results_environment(run, "git_dirty")), id, e))
        return e->code;
    *added = *id != '\0';
    if (*added && !add_environment(s, run, id, e))
        add_results(s, run, id, e);
    return e->code;
}

int history_add_runs(struct store *s, const struct results_folder *runs, int n, int *added, struct error *e)
{
    for (int i = 0; i < n; ++i)
        if (history_check_run(&runs[i], e))
            return e->code;
    if (store_begin_writing(s, e))
        return e->code;
    for (int i = 0; i < n && !e->code; ++i)
        add_run(s, &runs[i], &added[i], e);
    if (e->code || store_commit(s, e))
        store_rollback(s);
    return e->code;
}

int history_add(const char *target, const struct results_folder *run, struct error *e)
{
    struct store *s;
    int added;
    if (history_check_run(run, e) || history_open(target, 1, &s, e))
        return e->code;
    history_add_runs(s, run, 1, &added, e);
    store_close(s);
    return e->code;
}

/* ---- a history CSV ---- */

/* Every number checked before anything is written, so that a bad line leaves the database as it was: the shape
 * (an export from before rows, cols and inner holds squares of its widths), the samples and the figures. */
static int check_csv_numbers(const struct csv_table *t, struct error *e)
{
    struct shape_columns shape_columns;
    if (shape_columns_find(t, &shape_columns, e))
        return e->code;
    for (int row = 0; row < t->rows; ++row) {
        struct product_shape shape;
        int samples;
        double real;
        if (shape_columns_read(t, row, &shape_columns, &shape, e) ||
            csv_table_int(t, row, HISTORY_SAMPLES, &samples, e))
            return e->code;
        for (int c = HISTORY_MEDIAN_MS; c < HISTORY_ROWS; ++c)
            if (csv_table_real(t, row, c, &real, e))
                return e->code;
    }
    return 0;
}

static int add_csv_run(struct store *s, const struct csv_table *t, int row, char *id, struct error *e)
{
    char machine[ID_SIZE];
    const char *key[3] = {csv_table_text(t, row, HISTORY_GPU_NAME), csv_table_text(t, row, HISTORY_COMMIT),
                          csv_table_text(t, row, HISTORY_TIME_UTC)};
    if (machine_id(s, "", key[0], "", machine, e) ||
        new_run(s, machine, key, csv_table_text(t, row, HISTORY_DIRTY), id, e))
        return e->code;
    static const char *const env_keys[] = {"gpu_name", "git_commit", "time_utc", "git_dirty"};
    const char *values[] = {key[0], key[1], key[2], csv_table_text(t, row, HISTORY_DIRTY)};
    for (int k = 0; *id && k < 4 && !e->code; ++k) {
        const char *params[] = {id, env_keys[k], values[k]};
        store_run(s, "INSERT INTO environment (run_id, key, value) VALUES ($1, $2, $3)", 3, params, NULL, e);
    }
    return e->code;
}

static int add_csv_result(struct store *s, const struct csv_table *t, int row, const struct shape_columns *columns,
                          const char *run, struct error *e)
{
    char job[ID_SIZE], result[ID_SIZE];
    struct product_shape shape;
    if (shape_columns_read(t, row, columns, &shape, e) ||
        job_id(s, csv_table_text(t, row, HISTORY_VARIANT), csv_table_text(t, row, HISTORY_PRECISION), shape, job, e))
        return e->code;
    const char *params[] = {run,
                            job,
                            csv_table_text(t, row, HISTORY_SAMPLES),
                            field(t, row, HISTORY_MEDIAN_MS),
                            field(t, row, HISTORY_Q1_MS),
                            field(t, row, HISTORY_Q3_MS)};
    if (id_of(s,
              "INSERT INTO result (run_id, job_id, samples, median_ms, q1_ms, q3_ms) VALUES ($1, $2, $3, $4, $5, $6)",
              "SELECT id FROM result WHERE run_id = $1 AND job_id = $2", 6, 2, params, result, e))
        return e->code;
    for (int c = HISTORY_GFLOPS; c < HISTORY_ROWS && !e->code; ++c)
        add_figure(s, result, history_csv.columns[c], field(t, row, c), e);
    return e->code;
}

static int same_key(const struct csv_table *t, int a, int b)
{
    return !strcmp(csv_table_text(t, a, HISTORY_GPU_NAME), csv_table_text(t, b, HISTORY_GPU_NAME)) &&
           !strcmp(csv_table_text(t, a, HISTORY_COMMIT), csv_table_text(t, b, HISTORY_COMMIT)) &&
           !strcmp(csv_table_text(t, a, HISTORY_TIME_UTC), csv_table_text(t, b, HISTORY_TIME_UTC));
}

/* What went wrong, said of the CSV's line. */
static int at_line(const struct csv_table *t, int row, struct error *e)
{
    char why[sizeof e->message];
    int code = e->code;
    snprintf(why, sizeof why, "%s", e->message);
    *e = (struct error){0};
    return error_set(e, code, "%s:%d: %s", t->path, t->line[row], why);
}

/* A run's rows follow one another, as memscope-history add appended them and export writes them. */
static int migrate_rows(struct store *s, const struct csv_table *t, int *added, int *present, struct error *e)
{
    char run[ID_SIZE] = "";
    struct shape_columns shape_columns;
    if (shape_columns_find(t, &shape_columns, e))
        return e->code;
    for (int row = 0; row < t->rows; ++row) {
        bool first = row == 0 || !same_key(t, row, row - 1);
        if (first && add_csv_run(s, t, row, run, e))
            return at_line(t, row, e);
        if (first && *run)
            ++*added;
        else if (first)
            ++*present;
        if (*run && add_csv_result(s, t, row, &shape_columns, run, e))
            return at_line(t, row, e);
    }
    return 0;
}

int history_read_csv(const char *csv_path, struct csv_table *t, struct error *e)
{
    if (csv_table_read(csv_path, t, e))
        return e->code;
    /* An export from before rows, cols and inner lacks them: its rows are squares. */
    if (!schema_header_starts(t, &history_csv, HISTORY_ROWS))
        error_set(e, EXIT_USAGE, "%s:1: not a memscope history CSV (the header differs)", csv_path);
    else
        check_csv_numbers(t, e);
    if (e->code)
        csv_table_free(t);
    return e->code;
}

int history_migrate_csv(struct store *s, const struct csv_table *t, int *added, int *present, struct error *e)
{
    *added = *present = 0;
    if (store_begin_writing(s, e))
        return e->code;
    if (migrate_rows(s, t, added, present, e) || store_commit(s, e))
        store_rollback(s);
    return e->code;
}
