#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "schema.h"
#include "value_limits.h"

/* A day, the longest a kernel or a phase of a run can take and still be a measurement. */
#define DAY_MS 86400000.0
/* The largest count: a 64-bit counter's. */
#define MAX_COUNT 1.8446744073709552e19

struct limit {
    double low, high;
    bool above_low; /* low itself refused (a kernel time of 0) */
    const char *what;
};

/* The limits, each with the words that name it in a refusal ("... but <what>"); docs/results-folder.md says the
 * same. */
static const struct limit limits[] = {
    [LIMIT_TEXT] = {-INFINITY, INFINITY, false, "text"},
    [LIMIT_NUMBER] = {-INFINITY, INFINITY, false, "a number must be finite"},
    [LIMIT_COUNT] = {0, MAX_COUNT, false, "a count must be 0 or more (at most 2^64)"},
    [LIMIT_DIFFERENCE] = {-MAX_COUNT, MAX_COUNT, false, "a difference of counts must be within 2^64 either way"},
    [LIMIT_RATIO] = {0, INFINITY, false, "a ratio must be 0 or more"},
    [LIMIT_TIME_MS] = {0, DAY_MS, true, "a time must be positive, at most 86400000 ms (a day)"},
    [LIMIT_SPAN_MS] = {0, DAY_MS, false, "a time must be 0 or more, at most 86400000 ms (a day)"},
    [LIMIT_TOTAL_MS] = {0, 365 * DAY_MS, false, "a total time must be 0 or more, at most 31536000000 ms (a year)"},
    [LIMIT_DURATION_NS] = {0, DAY_MS * 1e6, false, "a duration must be 0 or more, at most 86400000000000 ns (a day)"},
    [LIMIT_PERCENT] = {0, 1000, false, "a percentage must be from 0 to 1000"},
    [LIMIT_GBS] = {0, 1e6, false, "a bandwidth must be from 0 to 1000000 GB/s"},
    [LIMIT_GFLOPS] = {0, 1e7, false, "a rate must be from 0 to 10000000 GFLOP/s"},
    [LIMIT_BY_UNIT] = {-INFINITY, INFINITY, false, "by its unit"},
};

/* metrics.csv's units: CUPTI's (collected) and the metric catalog's (derived). "wavefront" is only the catalog's
 * excess estimates, which fall below 0 where the estimated ideal exceeds the wavefronts counted; CUPTI's
 * wavefronts are "l1tex_wavefront". */
static const struct {
    const char *unit;
    enum value_limit limit;
} units[] = {
    {"%", LIMIT_PERCENT},
    {"percent", LIMIT_PERCENT},
    {"GB/s", LIMIT_GBS},
    {"GFLOP/s", LIMIT_GFLOPS},
    {"ms", LIMIT_TIME_MS},
    {"nanosecond", LIMIT_DURATION_NS},
    {"byte", LIMIT_COUNT},
    {"conflict", LIMIT_COUNT},
    {"flop", LIMIT_COUNT},
    {"op", LIMIT_COUNT}, /* int8 tensor operations (integer: not FLOP) */
    {"instruction", LIMIT_COUNT},
    {"inst", LIMIT_COUNT},
    {"l1data_bank_conflict", LIMIT_COUNT},
    {"l1tex_wavefront", LIMIT_COUNT},
    {"l2_sector", LIMIT_COUNT},
    {"sector", LIMIT_COUNT},
    {"request", LIMIT_COUNT},
    {"cycle", LIMIT_COUNT},
    {"warp", LIMIT_COUNT},
    {"thread", LIMIT_COUNT},
    {"cta", LIMIT_COUNT},
    {"block", LIMIT_COUNT},
    {"branch_target", LIMIT_COUNT},
    {"wavefront", LIMIT_DIFFERENCE},
    {"sector/request", LIMIT_RATIO},
    {"wavefront/instruction", LIMIT_RATIO},
    {"flop/byte", LIMIT_RATIO},
    {"thread/instruction", LIMIT_RATIO},
    {"ratio", LIMIT_RATIO},
};

enum value_limit value_limit_of_unit(const char *unit)
{
    for (size_t i = 0; i < sizeof units / sizeof *units; ++i)
        if (strcmp(units[i].unit, unit) == 0)
            return units[i].limit;
    return LIMIT_NUMBER;
}

static bool within(double value, const struct limit *l)
{
    return value >= l->low && value <= l->high && !(l->above_low && value == l->low);
}

/* The limit of a row's value in a column: the column's, or for metrics.csv's value the unit's. */
static enum value_limit row_limit(const struct csv_table *t, const struct csv_schema *s, int id, int row,
                                  char *unit_said, size_t len)
{
    if (s->limits[id] != LIMIT_BY_UNIT)
        return s->limits[id];
    int metric = schema_column_or_none(t, s, METRICS_METRIC), unit = schema_column_or_none(t, s, METRICS_UNIT);
    if (unit < 0)
        return LIMIT_NUMBER;
    snprintf(unit_said, len, " (metric '%s', unit '%s')", metric < 0 ? "" : csv_table_text(t, row, metric),
             csv_table_text(t, row, unit));
    return value_limit_of_unit(csv_table_text(t, row, unit));
}

static int check_column(const struct csv_table *t, const struct csv_schema *s, int id, struct error *e)
{
    int column = schema_column_or_none(t, s, id);
    if (column < 0 || s->limits[id] == LIMIT_TEXT)
        return 0;
    for (int row = 0; row < t->rows; ++row) {
        char unit_said[256] = "";
        double value;
        if (csv_table_real(t, row, column, &value, e))
            return e->code;
        const struct limit *l = &limits[row_limit(t, s, id, row, unit_said, sizeof unit_said)];
        if (!isnan(value) && !within(value, l))
            return error_set(e, EXIT_USAGE, "%s:%d: column '%s' holds '%s'%s, but %s", t->path, t->line[row],
                             t->header[column], csv_table_text(t, row, column), unit_said, l->what);
    }
    return 0;
}

int value_limits_check(const struct csv_table *t, const struct csv_schema *s, struct error *e)
{
    for (int id = 0; id < s->n && !e->code; ++id)
        check_column(t, s, id, e);
    return e->code;
}
