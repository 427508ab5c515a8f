/*
 * What a profiled kernel's summary row shows beside its time: the derived
 * metrics of the summary's metric columns, and its diagnosis (limiter and
 * evidence). The suite's run and a program's profile make them alike.
 */
#ifndef MEMSCOPE_PROFILE_SUMMARY_H
#define MEMSCOPE_PROFILE_SUMMARY_H

#include "../diagnose/diagnosis.h"
#include "../results/environment_csv.h"
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

#endif
