#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/grow.h"
#include "../common/paths.h"
#include "folder_reader.h"
#include "job_name.h"
#include "schema.h"

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A refused file leaves no table to free, as csv_table_read's own refusals do. */
static int read_checked(const char *path, const struct csv_schema *s, struct csv_table *t, struct error *e)
{
    if (csv_table_read(path, t, e) == 0 && value_limits_check(t, s, e))
        csv_table_free(t);
    return e->code;
}

static int read_file(const struct results_folder *r, const struct csv_schema *s, struct csv_table *t, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(path, sizeof path, "%s/%s", r->dir, s->file);
    if (!is_file(path))
        return error_set(e, EXIT_USAGE, "%s: no %s (not a memscope results folder, or an incomplete one)", r->dir,
                         s->file);
    return read_checked(path, s, t, e);
}

/* name: the file's path in the folder, where it is not the schema's file name (validate/validate.csv). */
static int read_optional(const struct results_folder *r, const char *name, const struct csv_schema *s,
                         struct csv_table *t, int *present, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(path, sizeof path, "%s/%s", r->dir, name);
    *present = is_file(path);
    return *present ? read_checked(path, s, t, e) : 0;
}

int results_read_optional(const char *dir, const struct csv_schema *s, struct csv_table *t, int *present,
                          struct error *e)
{
    char path[PATH_JOINED(PATH_LEN)];
    snprintf(path, sizeof path, "%s/%s", dir, s->file);
    *present = access(path, F_OK) == 0;
    return *present ? read_checked(path, s, t, e) : 0;
}

/* The files of a folder that opening it does not keep: checked all the same, so that a reader that does not draw
 * them refuses the folder as one that does. */
static int check_other_files(const struct results_folder *r, struct error *e)
{
    static const struct csv_schema *const others[] = {&lines_csv,    &stalls_csv,  &timeline_csv,
                                                      &launches_csv, &kernels_csv, &collectives_csv};
    for (size_t i = 0; i < sizeof others / sizeof *others && !e->code; ++i) {
        struct csv_table t;
        int present;
        if (!results_read_optional(r->dir, others[i], &t, &present, e) && present)
            csv_table_free(&t);
    }
    return e->code;
}

/* The columns the readers look up in each file, in the order they are found (the file's other columns may be
 * absent: written before them). */
enum { NEEDED_MAX = 5 };
static const struct needed_columns {
    const struct csv_schema *schema;
    int n, id[NEEDED_MAX];
} needed[] = {
    {&summary_csv, 5, {SUMMARY_VARIANT, SUMMARY_PRECISION, SUMMARY_STATUS, SUMMARY_SAMPLES, SUMMARY_MEDIAN_MS}},
    {&samples_csv, 2, {SAMPLES_VARIANT, SAMPLES_TIME_MS}},
    {&metrics_csv, 4, {METRICS_VARIANT, METRICS_METRIC, METRICS_VALUE, METRICS_KERNEL}},
};

/* column[i]: where the file has the schema's i-th needed column; an error naming the first it lacks. */
static int find_needed(const struct csv_table *t, const struct csv_schema *s, int column[NEEDED_MAX],
                       struct error *e)
{
    for (size_t k = 0; k < sizeof needed / sizeof needed[0]; ++k)
        for (int i = 0; needed[k].schema == s && i < needed[k].n; ++i)
            if (schema_column(t, s, needed[k].id[i], &column[i], e))
                return e->code;
    return 0;
}

int results_file_check(const char *path, const struct csv_schema *s, struct error *e)
{
    struct csv_table t;
    int column[NEEDED_MAX];
    if (read_checked(path, s, &t, e))
        return e->code;
    find_needed(&t, s, column, e);
    csv_table_free(&t);
    return e->code;
}

int results_folder_exists(const char *dir, struct error *e)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return error_set(e, EXIT_USAGE, "%s: no such results folder", dir);
    if (!S_ISDIR(st.st_mode))
        return error_set(e, EXIT_USAGE, "%s: not a folder (a results folder is the folder memscope wrote, not a file "
                                        "in it)", dir);
    return 0;
}

int results_read_written(const char *path, const struct csv_schema *s, int least, struct csv_table *t, struct error *e)
{
    if (csv_table_read(path, t, e))
        return e->code;
    if (schema_header_starts(t, s, least))
        return 0;
    csv_table_free(t);
    return error_set(e, EXIT_USAGE, "%s:1: not a %s written by memscope (its header differs)", path, s->file);
}

/* Every column a whole number: parsed once, so that lookups compare numbers, not texts. */
static int read_ints(const struct csv_table *t, int column, int **values, struct error *e)
{
    *values = calloc((size_t)t->rows + 1, sizeof **values);
    if (!*values)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (int row = 0; row < t->rows; ++row)
        if (csv_table_int(t, row, column, &(*values)[row], e))
            return e->code;
    return 0;
}

/* Every row's shape (product_shape.h: an older file's rows are squares of their widths). */
static int read_shapes(const struct csv_table *t, struct product_shape **shapes, struct error *e)
{
    struct shape_columns columns;
    if (shape_columns_find(t, &columns, e))
        return e->code;
    *shapes = calloc((size_t)t->rows + 1, sizeof **shapes);
    if (!*shapes)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (int row = 0; row < t->rows; ++row)
        if (shape_columns_read(t, row, &columns, &(*shapes)[row], e))
            return e->code;
    return 0;
}

/* The index of a shape among the summary's, or -1. */
static int shape_ordinal(const struct results_folder *r, struct product_shape s)
{
    for (int i = 0; i < r->n_shapes; ++i)
        if (product_shape_equal(r->shapes[i], s))
            return i;
    return -1;
}

static int add_shape(struct results_folder *r, struct product_shape s, int *ordinal, struct error *e)
{
    *ordinal = shape_ordinal(r, s);
    if (*ordinal >= 0)
        return 0;
    if (grow_for_one_more((void **)&r->shapes, (size_t)r->n_shapes, sizeof *r->shapes))
        return error_set(e, EXIT_RUNTIME, "out of memory");
    r->shapes[ *ordinal = r->n_shapes++] = s;
    return 0;
}

static int index_summary_rows(struct results_folder *r, struct error *e)
{
    const struct csv_table *s = &r->summary;
    if (name_index_init(&r->summary_rows, (size_t)s->rows) != 0)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    for (int row = 0, ordinal; row < s->rows; ++row)
        if (add_shape(r, r->summary_shape[row], &ordinal, e) ||
            name_index_add(&r->summary_rows, csv_table_text(s, row, r->col_variant), ordinal, row) < -1)
            return e->code ? e->code : error_set(e, EXIT_RUNTIME, "out of memory");
    return 0;
}

static int find_summary_columns(struct results_folder *r, struct error *e)
{
    const struct csv_table *s = &r->summary;
    int column[NEEDED_MAX];
    if (find_needed(s, &summary_csv, column, e))
        return e->code;
    r->col_variant = column[0];
    r->col_precision = column[1];
    r->col_status = column[2];
    r->col_samples = column[3];
    r->col_median_ms = column[4];
    if (s->rows == 0)
        return error_set(e, EXIT_USAGE, "%s: no rows (the run measured nothing)", s->path);
    if (read_shapes(s, &r->summary_shape, e) || read_ints(s, r->col_samples, &r->summary_samples, e))
        return e->code;
    return index_summary_rows(r, e);
}

/* A samples file cut short at a line boundary still parses; its counts give it away. */
static int check_sample_counts(struct results_folder *r, struct error *e)
{
    const struct csv_table *s = &r->samples;
    struct product_shape *shape = NULL;
    char label[PRODUCT_SHAPE_LEN];
    int column[NEEDED_MAX];
    if (find_needed(s, &samples_csv, column, e) || read_shapes(s, &shape, e)) {
        free(shape);
        return e->code;
    }
    int variant = column[0], time = column[1];
    r->sample_summary_row = calloc((size_t)s->rows + 1, sizeof *r->sample_summary_row);
    r->sample_ms = calloc((size_t)s->rows + 1, sizeof *r->sample_ms);
    int *counted = calloc((size_t)r->summary.rows, sizeof *counted);
    if (!r->sample_summary_row || !r->sample_ms || !counted)
        error_set(e, EXIT_RUNTIME, "out of memory");
    for (int row = 0; row < s->rows && !e->code; ++row) {
        int at = r->sample_summary_row[row] = results_summary_row(r, csv_table_text(s, row, variant), shape[row]);
        if (csv_table_required_real(s, row, time, &r->sample_ms[row], e))
            break;
        if (at < 0)
            error_set(e, EXIT_USAGE, "%s:%d: %s at %s is not in summary.csv", s->path, s->line[row],
                      csv_table_text(s, row, variant), product_shape_label(shape[row], label));
        else
            ++counted[at];
    }
    for (int row = 0; row < r->summary.rows && !e->code; ++row) {
        int expected = r->summary_samples[row];
        if (counted[row] != expected)
            error_set(e, EXIT_USAGE, "%s: %d samples of %s at %s, but %s:%d says %d (file truncated?)", s->path,
                      counted[row], csv_table_text(&r->summary, row, r->col_variant),
                      product_shape_label(r->summary_shape[row], label), r->summary.path, r->summary.line[row],
                      expected);
    }
    free(counted);
    free(shape);
    return e->code;
}

/* Each (variant, shape)'s rows chained, in the file's order: its first in the index, the others linked after it. A
 * row of a shape the summary lacks is in no chain: no job's. */
static int index_metric_rows(struct results_folder *r, const struct product_shape *shape, struct error *e)
{
    const struct csv_table *t = &r->metrics;
    int *last = malloc(((size_t)t->rows + 1) * sizeof *last); /* per row that heads a chain: the chain's last row */
    r->metric_next = malloc(((size_t)t->rows + 1) * sizeof *r->metric_next);
    if (!last || !r->metric_next || name_index_init(&r->metric_rows, (size_t)t->rows / 8) != 0) {
        free(last);
        return error_set(e, EXIT_RUNTIME, "out of memory");
    }
    for (int row = 0; row < t->rows && !e->code; ++row) {
        int ordinal = shape_ordinal(r, shape[row]);
        r->metric_next[row] = -1;
        if (ordinal < 0)
            continue;
        int first = name_index_add(&r->metric_rows, csv_table_text(t, row, r->metric_col_variant), ordinal, row);
        if (first < -1)
            error_set(e, EXIT_RUNTIME, "out of memory");
        else if (first != row)
            r->metric_next[last[first]] = row;
        if (first >= 0)
            last[first] = row;
    }
    free(last);
    return e->code;
}

static int find_metric_columns(struct results_folder *r, struct error *e)
{
    const struct csv_table *t = &r->metrics;
    struct product_shape *shape = NULL;
    int column[NEEDED_MAX];
    if (!r->has_metrics)
        return 0;
    if (find_needed(t, &metrics_csv, column, e))
        return e->code;
    r->metric_col_variant = column[0];
    r->metric_col_metric = column[1];
    r->metric_col_value = column[2];
    r->metric_col_kernel = column[3];
    if (read_shapes(t, &shape, e) == 0)
        index_metric_rows(r, shape, e);
    free(shape);
    return e->code;
}

static int check_environment(const struct results_folder *r, struct error *e)
{
    const struct csv_table *t = &r->environment;
    if (!schema_header_matches(t, &environment_csv))
        return error_set(e, EXIT_USAGE, "%s:1: the header must be 'key,value'", t->path);
    if (!results_environment(r, "gpu_name"))
        return error_set(e, EXIT_USAGE, "%s: no gpu_name", r->environment.path);
    return 0;
}

static int check_variants(struct results_folder *r, struct error *e)
{
    if (!r->has_variants)
        return 0;
    const struct csv_table *t = &r->variants;
    if (!schema_header_starts(t, &variants_csv, VARIANTS_TENSOR_LADDER_STEP))
        return error_set(e, EXIT_USAGE, "%s:1: not the header of a variants.csv", t->path);
    if (read_ints(t, VARIANTS_LADDER_STEP, &r->ladder_step[RESULTS_FP32_LADDER], e))
        return e->code;
    if (t->columns > VARIANTS_TENSOR_LADDER_STEP)
        return read_ints(t, VARIANTS_TENSOR_LADDER_STEP, &r->ladder_step[RESULTS_TENSOR_LADDER], e);
    r->ladder_step[RESULTS_TENSOR_LADDER] = calloc((size_t)t->rows + 1, sizeof(int));
    return r->ladder_step[RESULTS_TENSOR_LADDER] ? 0 : error_set(e, EXIT_RUNTIME, "out of memory");
}

static int variant_row(const struct results_folder *r, const char *variant)
{
    for (int row = 0; r->has_variants && row < r->variants.rows; ++row)
        if (strcmp(csv_table_text(&r->variants, row, VARIANTS_VARIANT), variant) == 0)
            return row;
    return -1;
}

int results_ladder_step(const struct results_folder *r, enum results_ladder ladder, const char *variant)
{
    int row = variant_row(r, variant);
    return row < 0 ? 0 : r->ladder_step[ladder][row];
}

const char *results_description(const struct results_folder *r, const char *variant)
{
    int row = variant_row(r, variant);
    return row < 0 ? "" : csv_table_text(&r->variants, row, VARIANTS_DESCRIPTION);
}

static int open_folder(const char *dir, bool being_written, struct results_folder *r, struct error *e)
{
    memset(r, 0, sizeof *r);
    size_t length = strlen(dir);
    while (length > 1 && dir[length - 1] == '/')
        --length;
    char validate_path[64]; /* --validate writes its folder inside the run's */
    snprintf(validate_path, sizeof validate_path, "validate/%s", validate_csv.file);
    if (length >= sizeof r->dir)
        return error_set(e, EXIT_USAGE, "%.64s...: path too long", dir);
    snprintf(r->dir, sizeof r->dir, "%.*s", (int)length, dir);
    if (results_folder_exists(r->dir, e))
        return e->code;
    if (!being_written && length > 8 && strcmp(r->dir + length - 8, ".partial") == 0)
        return error_set(e, EXIT_USAGE, "%s: an incomplete run (the folder is renamed when the run completes)", r->dir);
    if (read_file(r, &environment_csv, &r->environment, e) || check_environment(r, e) ||
        read_file(r, &summary_csv, &r->summary, e) || find_summary_columns(r, e) ||
        read_file(r, &samples_csv, &r->samples, e) || check_sample_counts(r, e) ||
        read_optional(r, metrics_csv.file, &metrics_csv, &r->metrics, &r->has_metrics, e) ||
        find_metric_columns(r, e) ||
        read_optional(r, validate_path, &validate_csv, &r->validate, &r->has_validate, e) ||
        read_optional(r, variants_csv.file, &variants_csv, &r->variants, &r->has_variants, e) || check_variants(r, e) ||
        read_optional(r, findings_csv.file, &findings_csv, &r->findings, &r->has_findings, e) ||
        check_other_files(r, e))
        results_folder_close(r);
    return e->code;
}

int results_folder_open(const char *dir, struct results_folder *r, struct error *e)
{
    return open_folder(dir, false, r, e);
}

int results_folder_open_being_written(const char *dir, struct results_folder *r, struct error *e)
{
    return open_folder(dir, true, r, e);
}

void results_folder_close(struct results_folder *r)
{
    free(r->summary_shape);
    free(r->summary_samples);
    free(r->shapes);
    name_index_free(&r->summary_rows);
    free(r->metric_next);
    name_index_free(&r->metric_rows);
    free(r->sample_summary_row);
    free(r->sample_ms);
    for (int ladder = 0; ladder < RESULTS_LADDERS; ++ladder)
        free(r->ladder_step[ladder]);
    csv_table_free(&r->environment);
    csv_table_free(&r->summary);
    csv_table_free(&r->samples);
    csv_table_free(&r->metrics);
    csv_table_free(&r->validate);
    csv_table_free(&r->variants);
    csv_table_free(&r->findings);
}

const char *results_environment(const struct results_folder *r, const char *key)
{
    for (int row = 0; row < r->environment.rows; ++row)
        if (strcmp(csv_table_text(&r->environment, row, ENVIRONMENT_KEY), key) == 0)
            return csv_table_text(&r->environment, row, ENVIRONMENT_VALUE);
    return NULL;
}

/* Whether key names GPUs: a run's (gpu_uuid), a program's of one process (gpu_uuids), or a part's
 * (part_<name>_gpu_uuids: *part and *part_len name the part; empty for the others). */
static bool names_gpus(const char *key, const char **part, size_t *part_len)
{
    static const char prefix[] = "part_", suffix[] = "_gpu_uuids";
    size_t n = strlen(key), p = strlen(prefix), q = strlen(suffix);
    *part = key;
    *part_len = 0;
    if (strcmp(key, "gpu_uuid") == 0 || strcmp(key, "gpu_uuids") == 0)
        return true;
    if (n <= p + q || strncmp(key, prefix, p) != 0 || strcmp(key + n - q, suffix) != 0)
        return false;
    *part = key + p;
    *part_len = n - p - q;
    return true;
}

void results_gpu_uuids(const struct results_folder *r, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int row = 0; row < r->environment.rows && used < size; ++row) {
        const char *part;
        size_t len;
        if (names_gpus(csv_table_text(&r->environment, row, ENVIRONMENT_KEY), &part, &len))
            used += (size_t)snprintf(out + used, size - used, "%s%.*s%s%s", used ? ", " : "", (int)len, part,
                                     len ? " " : "", csv_table_text(&r->environment, row, ENVIRONMENT_VALUE));
    }
}

int results_environment_number(const struct results_folder *r, const char *key, double *value, struct error *e)
{
    *value = NAN;
    for (int row = 0; row < r->environment.rows; ++row)
        if (strcmp(csv_table_text(&r->environment, row, ENVIRONMENT_KEY), key) == 0)
            return csv_table_real(&r->environment, row, ENVIRONMENT_VALUE, value, e);
    return 0;
}

int results_is_program(const struct results_folder *r)
{
    const char *kind = results_environment(r, "kind");
    return kind && strcmp(kind, PROGRAM_KIND) == 0;
}

int results_row_ok(const struct results_folder *r, int row)
{
    const char *status = csv_table_text(&r->summary, row, r->col_status);
    static const char *const program_statuses[] = {PROGRAM_STATUS_PROFILED, PROGRAM_STATUS_TIMED,
                                                   PROGRAM_STATUS_NOT_REPLAYED, PROGRAM_STATUS_KEPT_BACK,
                                                   PROGRAM_STATUS_KEPT_BACK_IN_CAPTURE, PROGRAM_STATUS_IN_GRAPH};
    if (!results_is_program(r))
        return strcmp(status, "passed") == 0;
    for (size_t i = 0; i < sizeof program_statuses / sizeof program_statuses[0]; ++i)
        if (strcmp(status, program_statuses[i]) == 0)
            return 1;
    return 0;
}

int results_summary_row(const struct results_folder *r, const char *variant, struct product_shape shape)
{
    int ordinal = shape_ordinal(r, shape);
    return ordinal < 0 ? -1 : name_index_find(&r->summary_rows, variant, ordinal);
}

int results_first_metric_row(const struct results_folder *r, const char *variant, struct product_shape shape)
{
    int ordinal = shape_ordinal(r, shape);
    return !r->has_metrics || ordinal < 0 ? -1 : name_index_find(&r->metric_rows, variant, ordinal);
}

/* kernel NULL: every kernel of the call, summed; NAN when no row has the metric, or one has no value. */
static int metric_value(const struct results_folder *r, const char *variant, struct product_shape shape,
                        const char *kernel, const char *metric, double *sum, struct error *e)
{
    const struct csv_table *t = &r->metrics;
    int rows = 0;
    *sum = 0.0;
    for (int row = results_first_metric_row(r, variant, shape); row >= 0; row = r->metric_next[row]) {
        double value;
        if (strcmp(csv_table_text(t, row, r->metric_col_metric), metric) ||
            (kernel && strcmp(csv_table_text(t, row, r->metric_col_kernel), kernel)))
            continue;
        if (csv_table_real(t, row, r->metric_col_value, &value, e))
            return e->code;
        *sum += value; /* an empty value makes the sum NAN, and it stays so */
        ++rows;
    }
    if (rows == 0)
        *sum = NAN;
    return 0;
}

int results_metric_sum(const struct results_folder *r, const char *variant, struct product_shape shape,
                       const char *metric, double *sum, struct error *e)
{
    return metric_value(r, variant, shape, NULL, metric, sum, e);
}

int results_main_kernel_metric(const struct results_folder *r, const char *variant, struct product_shape shape,
                               const char *metric, double *value, struct error *e)
{
    int row = results_summary_row(r, variant, shape);
    int column = schema_column_or_none(&r->summary, &summary_csv, SUMMARY_METRICS_KERNEL);
    *value = NAN;
    if (row < 0 || column < 0 || !*csv_table_text(&r->summary, row, column))
        return 0;
    return metric_value(r, variant, shape, csv_table_text(&r->summary, row, column), metric, value, e);
}

int results_main_kernel_metrics(const struct results_folder *r, const char *variant, struct product_shape shape,
                                const char *names[], double values[], int max, int *n, struct error *e)
{
    int row = results_summary_row(r, variant, shape);
    int column = schema_column_or_none(&r->summary, &summary_csv, SUMMARY_METRICS_KERNEL);
    const struct csv_table *t = &r->metrics;
    *n = 0;
    if (row < 0 || column < 0 || !*csv_table_text(&r->summary, row, column) || !r->has_metrics)
        return 0;
    const char *kernel = csv_table_text(&r->summary, row, column);
    for (int m = results_first_metric_row(r, variant, shape); m >= 0 && *n < max; m = r->metric_next[m]) {
        if (strcmp(csv_table_text(t, m, r->metric_col_kernel), kernel))
            continue;
        if (csv_table_real(t, m, r->metric_col_value, &values[*n], e))
            return e->code;
        names[(*n)++] = csv_table_text(t, m, r->metric_col_metric);
    }
    return 0;
}

const char *results_other_gpu_work(const struct results_folder *r, int row)
{
    int column = csv_table_column_or_none(&r->summary, summary_csv.columns[SUMMARY_OTHER_GPU_WORK]);
    return column < 0 ? "" : csv_table_text(&r->summary, row, column);
}

int results_disturbed(const struct results_folder *r, int row)
{
    const char *who = results_other_gpu_work(r, row);
    return who[0] != '\0' && strncmp(who, "unknown", strlen("unknown")) != 0;
}
