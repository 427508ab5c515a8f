/*
 * A GPU's history read back as series: its runs in the order they started, and per job (a variant at a shape)
 * the median times of the runs that timed it, with the steps found in them (steps.h) and, at each step, the
 * deterministic counts that changed at the same commit.
 */
#ifndef MEMSCOPE_HISTORY_SERIES_H
#define MEMSCOPE_HISTORY_SERIES_H

#include <stdbool.h>

#include "../results/product_shape.h"
#include "steps.h"
#include "store.h"

/* A run, as the series refer to it; texts point into the set's rows. */
struct series_run {
    const char *commit, *dirty, *time_utc;
};

/* One job's points: the runs (indices into the set's runs) where it has a median time, in run order. */
struct job_series {
    const char *variant, *precision;
    struct product_shape shape;
    int n;
    int *run;
    const char **result_id;
    double *median_ms, *q1_ms, *q3_ms;
    bool *may_step; /* a step may fall before point i: another commit, or uncommitted changes on either side */
};

struct series_set {
    char gpu[256];
    int runs;
    struct series_run *run;
    int jobs;
    struct job_series *job;
    struct store_rows run_rows, point_rows; /* what the texts point into */
    /* What the jobs' arrays are slices of: points in all, and each array. */
    int points;
    int *point_run;
    const char **point_result;
    double *point_median, *point_q1, *point_q3;
    bool *point_may_step;
};

/* The runs on gpu (NULL: the GPU of the latest run) and the series of every job there, at shape (all zero: every
 * shape). Refuses a history without runs, and a GPU it has none of, naming those it has. */
int series_load(struct store *s, const char *gpu, struct product_shape shape, struct series_set *set,
                struct error *e);
void series_free(struct series_set *set);

/* A job's shape, from a query's row that selects its rows, cols and inner one after another from rows_column on. */
struct product_shape series_job_shape(const struct store_rows *r, int row, int rows_column);

/* A job's steps (at most max) and, where level is given, the fitted level of each point (in ms). */
int series_steps(const struct job_series *job, const struct step_rules *rules, struct step *steps, int max,
                 double *level_ms, int *found, struct error *e);
/* The between-run noise of a job's medians (relative). */
int series_noise(const struct job_series *job, double *noise, struct error *e);

/* The deterministic counts that differ between two results (the last before a step and the first after it),
 * largest change first: "shared_conflicts_exact 0 -> 8388608, registers_per_thread +25 %"; "none moved", or
 * "not collected on both sides". */
int series_moved_counters(struct store *s, const char *before, const char *after, char *text, int size,
                          struct error *e);

#endif
