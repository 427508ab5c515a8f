/*
 * What a profiled kernel's summary row shows beside its time: the derived
 * metrics of the summary's metric columns, and its diagnosis (limiter and
 * evidence). The suite's run and a program's profile make them alike.
 */
#ifndef MEMSCOPE_PROFILE_SUMMARY_H
#define MEMSCOPE_PROFILE_SUMMARY_H

#include "../diagnose/diagnosis.h"
#include "../diagnose/findings.h"
#include "../diagnose/occupancy.h"
#include "../results/environment_csv.h"
#include "../results/findings_csv.h"
#include "../results/summary_csv.h"
#include "profile.h"

/* headline[i]: summary.csv's metric column i from global_load_efficiency_pct on; NAN where not collected. */
void profile_headline(const struct profile *p, int kernel, double headline[SUMMARY_HEADLINE_COLUMNS]);

/* A kernel's tensor-core work: summary.csv's tensor_type ("" when none), tensor_flop (all types),
 * tensor_tflops (tensor_gflops / 1000: its counted operations over its duration in the metric passes) and
 * tensor_roof_pct (tensor_tflops as a share of the roof of its type that env, the run's or the profile's
 * environment.csv, recorded); NAN where the tensor group (or the duration, or the roof) is missing. */
struct tensor_work {
    const char *type;
    double flop, tflops, roof_pct;
};

void profile_tensor_work(const struct profile *p, int kernel, const struct environment *env, struct tensor_work *out);

/* The exact shared-memory sums of the source group, when it ran for the kernel (else both NAN): the bank-conflict
 * share is then exact instead of the kernel-total estimate. */
struct exact_shared {
    double excess_wavefronts, wavefronts;
};

/* env: the run's or profile's environment.csv, for the measured roof of the kernel's tensor type (NULL: none). */
void profile_diagnose(const struct profile *p, int kernel, const struct exact_shared *exact,
                      const struct environment *env, struct diagnosis *d);

/* What the findings know of a kernel's launch beyond its metrics: NAN where unknown (a library's kernel). */
struct launch_facts {
    double registers_per_thread, shared_per_block, threads_per_block;
};

/* The kernel's findings, ranked (diagnose/findings.h), from the same inputs as its diagnosis, the SM's limits in env
 * (environment.csv's sm_* keys), its launch (NULL: unknown) and its source lines (NULL: the source group did not
 * run); returns how many, at most max. */
int profile_findings(const struct profile *p, int kernel, const struct exact_shared *exact,
                     const struct environment *env, const struct launch_facts *launch,
                     const struct finding_lines *lines, struct finding out[], int max);

/* A kernel's findings as findings.csv's rows, ranked from 1; and the first into a summary row (empty without one). */
void profile_write_findings(struct csv *c, const char *variant, const char *precision, struct product_shape shape,
                            const char *kernel, const struct finding *f, int n);
void profile_first_finding(const struct finding *f, int n, struct summary_row *row);

#endif
