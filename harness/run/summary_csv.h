/*
 * The CSV files of a results folder. Column names are stable; units are in the
 * names (_ms, _gflops, _gbs, _bytes). README.md documents every column.
 */
#ifndef MEMSCOPE_RESULTS_H
#define MEMSCOPE_RESULTS_H

#include "../common/error.h"
#include "job.h"

extern const char SUMMARY_HEADER[];
extern const char SAMPLES_HEADER[];

int results_write_summary(const char *dir, const struct job_result *jobs, int count, struct error *e);
int results_write_samples(const char *dir, const struct job_result *jobs, int count, struct error *e);
void results_print_table(FILE *f, const struct job_result *jobs, int count);

#endif
