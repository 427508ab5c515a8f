/* summary.csv, samples.csv and variants.csv of a run (their columns: results/schema.h), and the table printed
 * at its end. */
#ifndef MEMSCOPE_SUMMARY_CSV_H
#define MEMSCOPE_SUMMARY_CSV_H

#include "../common/error.h"
#include "../diagnose/diagnosis.h"
#include "job.h"

/* A profiled job's limiter and evidence from its figures; -1 when it was not profiled. */
int job_diagnose(const struct job_result *r, struct diagnosis *d);

int results_write_summary(const char *dir, const struct job_result *jobs, int count, struct error *e);
int results_write_samples(const char *dir, const struct job_result *jobs, int count, struct error *e);
int results_write_variants(const char *dir, const struct matmul_variant *const *variants, int count,
                           struct error *e);
void results_print_table(FILE *f, const struct job_result *jobs, int count);

#endif
