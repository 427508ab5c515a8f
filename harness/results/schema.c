#include <string.h>

#include "schema.h"

#define SCHEMA_NAME(id, name, limit) name,
#define SCHEMA_LIMIT(id, name, limit) LIMIT_##limit,
static const char *const summary_names[] = {SUMMARY_CSV(SCHEMA_NAME)};
static const char *const samples_names[] = {SAMPLES_CSV(SCHEMA_NAME)};
static const char *const variants_names[] = {VARIANTS_CSV(SCHEMA_NAME)};
static const char *const metrics_names[] = {METRICS_CSV(SCHEMA_NAME)};
static const char *const lines_names[] = {LINES_CSV(SCHEMA_NAME)};
static const char *const instructions_names[] = {INSTRUCTIONS_CSV(SCHEMA_NAME)};
static const char *const stalls_names[] = {STALLS_CSV(SCHEMA_NAME)};
static const char *const environment_names[] = {ENVIRONMENT_CSV(SCHEMA_NAME)};
static const char *const timeline_names[] = {TIMELINE_CSV(SCHEMA_NAME)};
static const char *const launches_names[] = {LAUNCHES_CSV(SCHEMA_NAME)};
static const char *const kernels_names[] = {KERNELS_CSV(SCHEMA_NAME)};
static const char *const collectives_names[] = {COLLECTIVES_CSV(SCHEMA_NAME)};
static const char *const validate_names[] = {VALIDATE_CSV(SCHEMA_NAME)};
static const char *const findings_names[] = {FINDINGS_CSV(SCHEMA_NAME)};
static const char *const compare_names[] = {COMPARE_CSV(SCHEMA_NAME)};
static const char *const compare_metrics_names[] = {COMPARE_METRICS_CSV(SCHEMA_NAME)};
static const char *const compare_lines_names[] = {COMPARE_LINES_CSV(SCHEMA_NAME)};
static const char *const history_names[] = {HISTORY_CSV(SCHEMA_NAME)};
static const enum value_limit summary_limits[] = {SUMMARY_CSV(SCHEMA_LIMIT)};
static const enum value_limit samples_limits[] = {SAMPLES_CSV(SCHEMA_LIMIT)};
static const enum value_limit variants_limits[] = {VARIANTS_CSV(SCHEMA_LIMIT)};
static const enum value_limit metrics_limits[] = {METRICS_CSV(SCHEMA_LIMIT)};
static const enum value_limit lines_limits[] = {LINES_CSV(SCHEMA_LIMIT)};
static const enum value_limit instructions_limits[] = {INSTRUCTIONS_CSV(SCHEMA_LIMIT)};
static const enum value_limit stalls_limits[] = {STALLS_CSV(SCHEMA_LIMIT)};
static const enum value_limit environment_limits[] = {ENVIRONMENT_CSV(SCHEMA_LIMIT)};
static const enum value_limit timeline_limits[] = {TIMELINE_CSV(SCHEMA_LIMIT)};
static const enum value_limit launches_limits[] = {LAUNCHES_CSV(SCHEMA_LIMIT)};
static const enum value_limit kernels_limits[] = {KERNELS_CSV(SCHEMA_LIMIT)};
static const enum value_limit collectives_limits[] = {COLLECTIVES_CSV(SCHEMA_LIMIT)};
static const enum value_limit validate_limits[] = {VALIDATE_CSV(SCHEMA_LIMIT)};
static const enum value_limit findings_limits[] = {FINDINGS_CSV(SCHEMA_LIMIT)};
static const enum value_limit compare_limits[] = {COMPARE_CSV(SCHEMA_LIMIT)};
static const enum value_limit compare_metrics_limits[] = {COMPARE_METRICS_CSV(SCHEMA_LIMIT)};
static const enum value_limit compare_lines_limits[] = {COMPARE_LINES_CSV(SCHEMA_LIMIT)};
static const enum value_limit history_limits[] = {HISTORY_CSV(SCHEMA_LIMIT)};

const struct csv_schema summary_csv = {"summary.csv", SUMMARY_COLUMNS, summary_names, summary_limits};
const struct csv_schema samples_csv = {"samples.csv", SAMPLES_COLUMNS, samples_names, samples_limits};
const struct csv_schema variants_csv = {"variants.csv", VARIANTS_COLUMNS, variants_names, variants_limits};
const struct csv_schema metrics_csv = {"metrics.csv", METRICS_COLUMNS, metrics_names, metrics_limits};
const struct csv_schema lines_csv = {"lines.csv", LINES_COLUMNS, lines_names, lines_limits};
const struct csv_schema instructions_csv = {"instructions.csv", INSTRUCTIONS_COLUMNS, instructions_names,
                                            instructions_limits};
const struct csv_schema stalls_csv = {"stalls.csv", STALLS_COLUMNS, stalls_names, stalls_limits};
const struct csv_schema environment_csv = {"environment.csv", ENVIRONMENT_COLUMNS, environment_names,
                                           environment_limits};
const struct csv_schema timeline_csv = {"timeline.csv", TIMELINE_COLUMNS, timeline_names, timeline_limits};
const struct csv_schema launches_csv = {"launches.csv", LAUNCHES_COLUMNS, launches_names, launches_limits};
const struct csv_schema kernels_csv = {"kernels.csv", KERNELS_COLUMNS, kernels_names, kernels_limits};
const struct csv_schema collectives_csv = {"collectives.csv", COLLECTIVES_COLUMNS, collectives_names,
                                           collectives_limits};
const struct csv_schema validate_csv = {"validate.csv", VALIDATE_COLUMNS, validate_names, validate_limits};
const struct csv_schema findings_csv = {"findings.csv", FINDINGS_COLUMNS, findings_names, findings_limits};
const struct csv_schema compare_csv = {"compare.csv", COMPARE_COLUMNS, compare_names, compare_limits};
const struct csv_schema compare_metrics_csv = {"compare-metrics.csv", COMPARE_METRICS_COLUMNS, compare_metrics_names,
                                               compare_metrics_limits};
const struct csv_schema compare_lines_csv = {"compare-lines.csv", COMPARE_LINES_COLUMNS, compare_lines_names,
                                             compare_lines_limits};
const struct csv_schema history_csv = {"history.csv", HISTORY_COLUMNS, history_names, history_limits};

const struct csv_schema *schema_of_results_file(const char *file)
{
    static const struct csv_schema *const files[] = {
        &summary_csv,  &samples_csv,  &variants_csv, &metrics_csv,  &lines_csv,   &stalls_csv,
        &environment_csv, &timeline_csv, &launches_csv, &validate_csv, &instructions_csv, &findings_csv,
        &kernels_csv, &collectives_csv,
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; ++i)
        if (strcmp(files[i]->file, file) == 0)
            return files[i];
    return NULL;
}

/* Headers are joined into buffers of HEADER_LEN; the longest, summary.csv's, is about 750 characters. */
#define HEADER_LEN 4096
static void join_header(const struct csv_schema *s, char *header, size_t len)
{
    size_t used = 0;
    header[0] = '\0';
    for (int i = 0; i < s->n && used < len; ++i)
        used += (size_t)snprintf(header + used, len - used, "%s%s", i ? "," : "", s->columns[i]);
}

int schema_create(struct csv *c, const char *dir, const struct csv_schema *s, struct error *e)
{
    char header[HEADER_LEN];
    join_header(s, header, sizeof header);
    return csv_create(c, dir, s->file, header, e);
}

void schema_on_stream(struct csv *c, FILE *stream, const char *name, const struct csv_schema *s, int with_header)
{
    char header[HEADER_LEN];
    join_header(s, header, sizeof header);
    csv_on_stream(c, stream, name, with_header ? header : NULL);
}

int schema_column(const struct csv_table *t, const struct csv_schema *s, int id, int *column, struct error *e)
{
    return csv_table_column(t, s->columns[id], column, e);
}

int schema_columns_before(const struct csv_table *t, const struct csv_schema *s, int end, int *column,
                          struct error *e)
{
    for (int id = 0; id < end; ++id)
        if (schema_column(t, s, id, &column[id], e))
            return e->code;
    return 0;
}

int schema_column_or_none(const struct csv_table *t, const struct csv_schema *s, int id)
{
    return csv_table_column_or_none(t, s->columns[id]);
}

int schema_header_starts(const struct csv_table *t, const struct csv_schema *s, int least)
{
    if (t->columns < least || t->columns > s->n)
        return 0;
    for (int i = 0; i < t->columns; ++i)
        if (strcmp(t->header[i], s->columns[i]) != 0)
            return 0;
    return 1;
}

int schema_header_matches(const struct csv_table *t, const struct csv_schema *s)
{
    return schema_header_starts(t, s, s->n);
}
