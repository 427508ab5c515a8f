#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "folder_reader.h"

static int is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int read_file(const struct results_folder *r, const char *name, struct csv_table *t, struct error *e)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", r->dir, name);
    if (!is_file(path))
        return error_set(e, EXIT_USAGE, "%s: no %s (not a memscope results folder, or an incomplete one)", r->dir, name);
    return csv_table_read(path, t, e);
}

static int read_optional(const struct results_folder *r, const char *name, struct csv_table *t, int *present,
                         struct error *e)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", r->dir, name);
    *present = is_file(path);
    return *present ? csv_table_read(path, t, e) : 0;
}

static int find_summary_columns(struct results_folder *r, struct error *e)
{
    const struct csv_table *s = &r->summary;
    if (csv_table_column(s, "variant", &r->col_variant, e) || csv_table_column(s, "precision", &r->col_precision, e) ||
        csv_table_column(s, "width", &r->col_width, e) || csv_table_column(s, "status", &r->col_status, e) ||
        csv_table_column(s, "samples", &r->col_samples, e) || csv_table_column(s, "median_ms", &r->col_median_ms, e))
        return e->code;
    if (s->rows == 0)
        return error_set(e, EXIT_USAGE, "%s: no rows (the run measured nothing)", s->path);
    for (int row = 0; row < s->rows; ++row) {
        double width, samples, median;
        if (csv_table_required_real(s, row, r->col_width, &width, e) ||
            csv_table_required_real(s, row, r->col_samples, &samples, e) ||
            csv_table_real(s, row, r->col_median_ms, &median, e))
            return e->code;
    }
    return 0;
}

/* A samples file cut short at a line boundary still parses; its counts give it away. */
static int check_sample_counts(const struct results_folder *r, struct error *e)
{
    const struct csv_table *s = &r->samples;
    int variant, width, time;
    if (csv_table_column(s, "variant", &variant, e) || csv_table_column(s, "width", &width, e) ||
        csv_table_column(s, "time_ms", &time, e))
        return e->code;
    for (int row = 0; row < s->rows; ++row) {
        double value;
        if (csv_table_required_real(s, row, time, &value, e))
            return e->code;
    }
    int *counted = calloc((size_t)r->summary.rows, sizeof *counted);
    if (!counted)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (int row = 0; row < s->rows && !e->code; ++row) {
        int at = results_summary_row(r, csv_table_text(s, row, variant), atoi(csv_table_text(s, row, width)));
        if (at < 0)
            error_set(e, EXIT_USAGE, "%s:%d: %s at width %s is not in summary.csv", s->path, s->line[row],
                      csv_table_text(s, row, variant), csv_table_text(s, row, width));
        else
            ++counted[at];
    }
    for (int row = 0; row < r->summary.rows && !e->code; ++row) {
        int expected = atoi(csv_table_text(&r->summary, row, r->col_samples));
        if (counted[row] != expected)
            error_set(e, EXIT_USAGE, "%s: %d samples of %s at width %s, but %s:%d says %d (file truncated?)", s->path,
                      counted[row], csv_table_text(&r->summary, row, r->col_variant),
                      csv_table_text(&r->summary, row, r->col_width), r->summary.path, r->summary.line[row], expected);
    }
    free(counted);
    return e->code;
}

static int find_metric_columns(struct results_folder *r, struct error *e)
{
    const struct csv_table *t = &r->metrics;
    if (!r->has_metrics)
        return 0;
    if (csv_table_column(t, "variant", &r->metric_col_variant, e) ||
        csv_table_column(t, "width", &r->metric_col_width, e) ||
        csv_table_column(t, "metric", &r->metric_col_metric, e) ||
        csv_table_column(t, "value", &r->metric_col_value, e))
        return e->code;
    return 0;
}

static int check_environment(const struct results_folder *r, struct error *e)
{
    const struct csv_table *t = &r->environment;
    if (t->columns != 2 || strcmp(t->header[0], "key") != 0 || strcmp(t->header[1], "value") != 0)
        return error_set(e, EXIT_USAGE, "%s:1: the header must be 'key,value'", t->path);
    if (!results_environment(r, "gpu_name"))
        return error_set(e, EXIT_USAGE, "%s: no gpu_name", r->environment.path);
    return 0;
}

int results_folder_open(const char *dir, struct results_folder *r, struct error *e)
{
    memset(r, 0, sizeof *r);
    size_t length = strlen(dir);
    while (length > 1 && dir[length - 1] == '/')
        --length;
    snprintf(r->dir, sizeof r->dir, "%.*s", (int)length, dir);
    if (!is_folder(r->dir))
        return error_set(e, EXIT_USAGE, "%s: no such results folder", r->dir);
    if (length > 8 && strcmp(r->dir + length - 8, ".partial") == 0)
        return error_set(e, EXIT_USAGE, "%s: an incomplete run (the folder is renamed when the run completes)", r->dir);
    if (read_file(r, "environment.csv", &r->environment, e) || check_environment(r, e) ||
        read_file(r, "summary.csv", &r->summary, e) || find_summary_columns(r, e) ||
        read_file(r, "samples.csv", &r->samples, e) || check_sample_counts(r, e) ||
        read_optional(r, "metrics.csv", &r->metrics, &r->has_metrics, e) || find_metric_columns(r, e) ||
        read_optional(r, "validate/validate.csv", &r->validate, &r->has_validate, e))
        results_folder_close(r);
    return e->code;
}

void results_folder_close(struct results_folder *r)
{
    csv_table_free(&r->environment);
    csv_table_free(&r->summary);
    csv_table_free(&r->samples);
    csv_table_free(&r->metrics);
    csv_table_free(&r->validate);
}

const char *results_environment(const struct results_folder *r, const char *key)
{
    for (int row = 0; row < r->environment.rows; ++row)
        if (strcmp(csv_table_text(&r->environment, row, 0), key) == 0)
            return csv_table_text(&r->environment, row, 1);
    return NULL;
}

int results_summary_row(const struct results_folder *r, const char *variant, int width)
{
    for (int row = 0; row < r->summary.rows; ++row)
        if (strcmp(csv_table_text(&r->summary, row, r->col_variant), variant) == 0 &&
            atoi(csv_table_text(&r->summary, row, r->col_width)) == width)
            return row;
    return -1;
}

int results_metric_sum(const struct results_folder *r, const char *variant, int width, const char *metric,
                       double *sum, struct error *e)
{
    const struct csv_table *t = &r->metrics;
    *sum = NAN;
    for (int row = 0; r->has_metrics && row < t->rows; ++row) {
        double value;
        if (strcmp(csv_table_text(t, row, r->metric_col_variant), variant) ||
            atoi(csv_table_text(t, row, r->metric_col_width)) != width ||
            strcmp(csv_table_text(t, row, r->metric_col_metric), metric))
            continue;
        if (csv_table_real(t, row, r->metric_col_value, &value, e))
            return e->code;
        *sum = isnan(*sum) ? value : *sum + value;
    }
    return 0;
}
