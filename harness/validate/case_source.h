/*
 * The source group's run of one case of --validate, for the ground truth (validate.c: its exact bank conflicts) and
 * the diagnosis corpus (diagnosis_corpus.c: its exact shared sums and the lines its findings name).
 */
#ifndef MEMSCOPE_CASE_SOURCE_H
#define MEMSCOPE_CASE_SOURCE_H

#include "../gpu/gpu.h"
#include "../source/collect.h"
#include "../source/source_lines.h"

/* The call's source counters in an NVTX source phase, their capture written to path (beside the metric passes'),
 * then the function's per-line totals into totals and, where lines is not NULL, the lines the findings name. Both
 * are left as they were on an error. */
int case_source(struct gpu *g, struct source_collector *s, const struct profiled_call *call, const char *path,
                double totals[LINE_METRIC_COUNT], struct finding_lines *lines, struct error *e);

#endif
