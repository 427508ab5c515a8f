/*
 * The history: runs recorded in a database (SQLite or PostgreSQL, store.h) with one schema and its version,
 * read back per GPU and job with the steps found in them (series.h), and the data of its chart across commits.
 */
#ifndef MEMSCOPE_HISTORY_H
#define MEMSCOPE_HISTORY_H

#include <stdio.h>

#include "../csv/reader.h"
#include "../results/folder_reader.h"
#include "../results/product_shape.h"
#include "store.h"

/* The schema this program writes; a database of an older one is brought up to it when opened. */
#define HISTORY_SCHEMA_VERSION 2

/* Opens the history named by target (store.h) and brings its schema up to date; writing: a SQLite file that is
 * not there is created. A SQLite target ending in .sql is a dump (history_dump), read into memory: for reading
 * only. Refuses what is not a memscope history, and a schema newer than this program knows. */
int history_open(const char *target, int writing, struct store **s, struct error *e);
/* Writes the history as SQL (a schema version line, one INSERT per row, a line counting the rows): what
 * history_open reads back. */
int history_dump(struct store *s, FILE *out, struct error *e);

/* Refuses a run without the environment keys it is known by (GPU, commit and start time), and a program's profile
 * (its jobs are a program's launches, which the history does not record). */
int history_check_run(const struct results_folder *run, struct error *e);
/* Records runs, all in one transaction; a run recorded already (the same commit, GPU and start time), by this
 * process or another, is left as it is: added[i] says whether runs[i] was added. */
int history_add_runs(struct store *s, const struct results_folder *runs, int n, int *added, struct error *e);
/* Records one run in the history at target (opened for it, and closed). */
int history_add(const char *target, const struct results_folder *run, struct error *e);
/* Reads a history CSV (the history before it was a database, and history_export's format) and checks its header
 * and every number, before any database is opened: a bad file leaves none created or changed. */
int history_read_csv(const char *csv_path, struct csv_table *t, struct error *e);
/* Records the runs of a history CSV read by history_read_csv, in one transaction; runs recorded already are left
 * as they are. */
int history_migrate_csv(struct store *s, const struct csv_table *t, int *added, int *present, struct error *e);

/* What the queries show: one GPU (NULL: the latest run's), one product's shape (a square's for a width; all zero:
 * every shape), one variant (NULL: every variant), and the smallest step (relative). */
struct history_query {
    const char *gpu, *variant;
    struct product_shape shape;
    double floor;
};

int history_print_runs(struct store *s, FILE *out, struct error *e);
/* The history as a history CSV (results/schema.h's HISTORY_CSV), every GPU, in run order. */
int history_export(struct store *s, FILE *out, struct error *e);
int history_print_series(struct store *s, const struct history_query *q, FILE *out, struct error *e);
int history_print_steps(struct store *s, const struct history_query *q, FILE *out, struct error *e);
int history_print_noise(struct store *s, const struct history_query *q, FILE *out, struct error *e);

/* For one GPU (NULL: the latest run's) and one shape (all zero: the largest the latest run measured): per variant,
 * one block of rows in run order with the steps marked (history.tsv), the labels and names (variables.gp), written
 * into out_dir. */
int history_chart_data(const char *target, const char *gpu, struct product_shape shape, double floor,
                       const char *out_dir, struct error *e);

#endif
