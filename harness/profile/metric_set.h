/*
 * Which hardware metrics a run collects (named groups plus any names the user
 * adds), and what is derived from them. Values are always looked up by metric
 * name, never by position.
 */
#ifndef MEMSCOPE_METRIC_SET_H
#define MEMSCOPE_METRIC_SET_H

#include <stdbool.h>
#include <stdio.h>

#include "../../cupti/metric_host.h"
#include "../common/error.h"
#include "metric_catalog.h"

#define MAX_METRICS PROF_MAX_METRICS /* the profiler's limit */
#define METRIC_NAME_LEN 128
#define MAX_DERIVED DERIVED_METRIC_COUNT
#define MAX_SUMMED 8 /* summed_counts.h's table */

struct metric_set {
    int n;
    char names[MAX_METRICS][METRIC_NAME_LEN];
    bool source; /* the source group: per-instruction counters, collected apart from the metrics above */
    bool stalls; /* the stalls group: PC sampling, apart from the metrics above */
    bool roofline; /* the roofline group: the run also measures the GPU's ceilings, its roofs (harness/ceilings/) */
    int n_summed;
    const char *summed[MAX_SUMMED]; /* left out of names: the source group sums them (summed_counts.h) */
};

/* groups: comma-separated group names, "all" or "none"; extra: comma-separated metric names (may be NULL). */
int metric_set_build(const char *groups, const char *extra, struct metric_set *out, struct error *e);

double metric_lookup(const char *const *names, const double *values, int n, const char *name);

struct derived_metric {
    const char *name;
    const char *unit;
    double value; /* NAN when an input metric was not collected */
};

/* The source type with the most tensor operations among derived[] (metrics_derive's): "bf16", "fp16", "tf32",
 * "fp8", "int8" or "fp64"; "" when the kernel ran none or the tensor group was not collected. A tie goes to the
 * first in that order. */
const char *metrics_tensor_type(const struct derived_metric derived[MAX_DERIVED]);

/* Fills out[] (MAX_DERIVED entries) with the derived metrics, in catalog order; returns how many. */
int metrics_derive(const char *const *names, const double *values, int n, struct derived_metric *out);

#endif
