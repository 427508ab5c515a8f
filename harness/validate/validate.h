/*
 * --validate: run the ground-truth kernels under the profiler and compare each
 * measured metric with its closed-form value: exactly for counts that do not
 * depend on timing (sectors per request, shared wavefronts per instruction),
 * within a stated tolerance for DRAM bytes; then the diagnosis corpus's first
 * findings against their planted causes (diagnosis_corpus.h); and judges the
 * measured ceilings against the datasheet. Writes validate.csv.
 */
#ifndef MEMSCOPE_VALIDATE_H
#define MEMSCOPE_VALIDATE_H

#include "../csv/writer.h"
#include "../results/environment_csv.h"
#include "../gpu/gpu.h"
#include "../profile/collect.h"
#include "../source/collect.h"

/* The ground-truth cases, and the corpus's, are each profiled in one batch: at most a batch of calls. */
#define VALIDATE_MAX_CASES MAX_BATCH

/* Writes validate.csv and metrics.csv into dir and captures into capture_dir; *failures counts failed checks.
 * validate.csv ends with the plausibility of the ceilings recorded in env (harness/ceilings/), measured before. */
int validate_run(struct gpu *g, struct metrics_collector *m, struct source_collector *s, const char *dir,
                 const char *capture_dir, const struct environment *env, int *checks, int *failures,
                 struct error *e);

/* Only launches the ground-truth kernels, each in its NVTX range: for measuring them with another profiler. */
int validate_launch_only(struct gpu *g, struct error *e);

#endif
