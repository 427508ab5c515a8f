/*
 * After every variant of a size (a width, or a product's shape) is timed: the metric passes over all of them
 * in one batch, then the source group, each call once more under SASS
 * patching. Both save their captures in the run's captures folder; the source
 * group's lines go to lines.csv as each size ends.
 *
 * The stall sampling (CUPTI PC sampling) cannot interleave with the range
 * profiler (H100, CUDA 13.0): PC sampling enabled after a range profiler had
 * been used gave no instruction records, and it sampled nothing while a range
 * profiler was enabled; the range profiler failed to start while PC sampling,
 * once used, was still enabled. So with the stalls group a run samples every
 * size as it is timed, disables PC sampling, and only then enables the range
 * profiler and profiles the sizes, each variant's operands kept meanwhile
 * where every size's fit on the GPU, made again from its seed otherwise.
 */
#ifndef MEMSCOPE_PROFILE_SIZE_H
#define MEMSCOPE_PROFILE_SIZE_H

#include "job.h"

int profile_size(struct job_context *ctx, struct job_result *jobs, int count, struct product_shape size, int batch,
                 struct error *e);
int sample_stalls_size(struct job_context *ctx, struct job_result *jobs, int count, struct product_shape size,
                       struct error *e);

#endif
