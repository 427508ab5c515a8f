/*
 * The report's data: a results folder turned into the small tab-separated
 * tables and the gnuplot variables that the scripts in scripts/report/ draw.
 * Numbers in tables are formatted here, once; a metric the run did not
 * collect is written as "not collected" (tables) or NaN (charts).
 */
#ifndef MEMSCOPE_REPORT_DATA_H
#define MEMSCOPE_REPORT_DATA_H

#include "../program/kernels.h"
#include "../results/folder_reader.h"

/* Rows per page of the ground-truth table. */
#define REPORT_VALIDATE_ROWS_PER_PAGE 30

/* note: one line for the title page, such as where the run came from; may be empty. compare_path: a
 * comparison's compare.csv to draw on a last page, or NULL. grouping: how a program's launches make its kernels
 * (GROUP_BY_KERNEL unless asked). Writes pages.tsv, the pages to render. */
int report_data_write(const struct results_folder *r, const char *out_dir, const char *note,
                      const char *compare_path, enum kernel_grouping grouping, struct error *e);

/* A comparison's compare.csv (memscope-compare -o), checked against its schema, written into dir as compare.tsv:
 * gnuplot cuts a quoted CSV field at its first comma, and a program's kernels' names hold commas. One written before
 * floor_pct, which the chart does not draw, is read as well. The comparison page's table, and compare-chart's: of a
 * comparison of many units, the bars worth drawing (report_data.c, choose_bars), and compare-variables.gp saying how
 * many of how many. */
int report_compare_table(const char *compare_path, const char *dir, struct error *e);

#endif
