/*
 * The history: one CSV that grows by a block of rows per recorded run (keyed
 * by commit and GPU), and the chart data drawn from it across commits.
 */
#ifndef MEMSCOPE_HISTORY_H
#define MEMSCOPE_HISTORY_H

#include "../results/folder_reader.h"

/* Appends the run's rows; creates the file with its header. Refuses a run
 * already recorded (same commit, GPU and start time). */
int history_add(const char *history_path, const struct results_folder *run, struct error *e);

/* For one GPU (NULL: the last recorded run's) and one width (0: the largest the last run measured):
 * per variant, one block of rows in run order, with a step mark where the
 * median moved by more than floor and the interquartile ranges do not overlap. */
int history_chart_data(const char *history_path, const char *gpu, int width, double floor, const char *out_dir,
                       struct error *e);

#endif
