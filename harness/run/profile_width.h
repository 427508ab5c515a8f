/*
 * After every variant of a width is timed: the metric passes over all of them
 * in one batch, then the source group, each call once more under SASS
 * patching. Both save their captures in the run's captures folder; the source
 * group's lines go to lines.csv as each width ends.
 */
#ifndef MEMSCOPE_PROFILE_WIDTH_H
#define MEMSCOPE_PROFILE_WIDTH_H

#include "job.h"

int profile_width(struct job_context *ctx, struct job_result *jobs, int count, int width, int batch,
                  struct error *e);

#endif
