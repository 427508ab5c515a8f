/* The rows of summary.csv, samples.csv and variants.csv from a run's jobs and variants, each job's diagnosis made
 * from its figures, handed to results/summary_csv.h to write; and the table printed at the run's end. */
#ifndef MEMSCOPE_SUMMARY_ROWS_H
#define MEMSCOPE_SUMMARY_ROWS_H

#include "../common/error.h"
#include "../diagnose/diagnosis.h"
#include "../diagnose/findings.h"
#include "../results/environment_csv.h"
#include "job.h"

/* The limiter and evidence of a profiled job's main kernel, from its derived metrics (and the source group's exact
 * conflicts, when it ran); env: the run's environment, for the measured roof of its tensor type. */
void job_diagnose(const struct job_result *r, const struct environment *env, struct diagnosis *d);

/* The findings of a profiled job's main kernel, ranked (diagnose/findings.h): its metrics, its launch's resources
 * (unknown for a library call), env's SM limits, and its lines where the source group ran; how many, at most max. */
int job_findings(const struct job_result *r, const struct environment *env, struct finding *out, int max);
/* findings.csv: every profiled job's findings. */
int run_write_findings(const char *dir, const struct job_result *jobs, int count, const struct environment *env,
                       struct error *e);

/* env: the run's environment, whose measured ceilings (none without the roofline group) give fp32_roof_pct and
 * tensor_roof_pct. */
int run_write_summary(const char *dir, const struct job_result *jobs, int count, const struct environment *env,
                      struct error *e);
int run_write_samples(const char *dir, const struct job_result *jobs, int count, struct error *e);
int run_write_variants(const char *dir, const struct matmul_variant *const *variants, int count, struct error *e);
void run_print_table(FILE *f, const struct job_result *jobs, int count);

#endif
