/*
 * What a number in a results folder may hold: each column of schema.h's lists names one of these limits, and
 * metrics.csv's value takes its limit from the row's unit. The folder reader applies them to every file it finds,
 * so that the report, the comparison, the history and the scripts (through memscope-report-data --check) refuse
 * the same file with the same message: the file, the line, the column, the value and the limit.
 * docs/results-folder.md lists each column's limit (tests/docs checks it).
 */
#ifndef MEMSCOPE_VALUE_LIMITS_H
#define MEMSCOPE_VALUE_LIMITS_H

#include "../csv/reader.h"

enum value_limit {
    LIMIT_TEXT,        /* not a number: not checked */
    LIMIT_NUMBER,      /* any finite number (a bound of a check, a change in %) */
    LIMIT_COUNT,       /* 0 or more: what was counted (sectors, bytes, samples) or a size */
    LIMIT_DIFFERENCE,  /* a count less an ideal, which may fall below it (an excess estimate): finite, either sign */
    LIMIT_RATIO,       /* 0 or more, without a bound (an error, a fraction, sectors per request) */
    LIMIT_TIME_MS,     /* a kernel time: more than 0, at most a day */
    LIMIT_SPAN_MS,     /* a time on the host or a spread: 0 or more, at most a day */
    LIMIT_TOTAL_MS,    /* a sum of kernel times over a whole profile's processes and runs: 0 or more, at most a year */
    LIMIT_DURATION_NS, /* a launch's duration in nanoseconds: 0 or more, at most a day */
    LIMIT_PERCENT,     /* 0 to 1000: CUPTI's ratios stray above 100 (results-folder.md says when) */
    LIMIT_GBS,         /* a bandwidth, 0 to 10^6 GB/s */
    LIMIT_GFLOPS,      /* an operation rate, 0 to 10^7 GFLOP/s */
    LIMIT_BY_UNIT,     /* metrics.csv's value: the limit of the row's unit (value_limit_of_unit) */
};

struct csv_schema;

/* The limit of a metric in unit, as metrics.csv names units (CUPTI's, and the catalog's derived ones); a unit not
 * listed (a metric added with --metrics) is LIMIT_NUMBER. */
enum value_limit value_limit_of_unit(const char *unit);

/* Every value of t, a file of schema s: a column of a number kind must hold a number within its limit, or nothing
 * (not measured). Columns are found by name, so an older file that lacks one is checked on the others. */
int value_limits_check(const struct csv_table *t, const struct csv_schema *s, struct error *e);

#endif
