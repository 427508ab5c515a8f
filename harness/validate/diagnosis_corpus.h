/*
 * The ground truth of the diagnosis (issue 40): the pathology corpus (kernels/pathology/pathology.h), small kernels
 * with one planted cause each, each profiled with the run's metric groups (and the source group where it runs), its
 * findings worked out by the same profile_findings as a run's, and its first finding held to the cause planted: a
 * row of validate.csv per case, failed when they differ. A case with a fixed sibling in the corpus also gets the gain
 * the fix measured (the two durations in the metric passes) beside the gain its finding estimated. Each case's
 * findings go to findings.csv and its metrics to metrics.csv, in the validation's folder.
 */
#ifndef MEMSCOPE_DIAGNOSIS_CORPUS_H
#define MEMSCOPE_DIAGNOSIS_CORPUS_H

#include "../csv/writer.h"
#include "../gpu/gpu.h"
#include "../profile/collect.h"
#include "../results/environment_csv.h"
#include "../source/collect.h"

/* out: validate.csv, metrics: its metrics.csv, both open; dir: the folder findings.csv goes to. */
int corpus_validate(struct gpu *g, struct metrics_collector *m, struct source_collector *s, const char *dir,
                    const char *capture_dir, const struct environment *env, struct csv *out, struct csv *metrics,
                    int *checks, int *failures, struct error *e);

#endif
