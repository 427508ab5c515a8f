/*
 * The ladder pages: the run's steps of the FP32 ladder (naive to cuBLAS) at its
 * largest width, ordered by variants.csv's ladder_step (the registry's order):
 * each step's speed, against cuBLAS and against the step before it in the run,
 * beside the counters that explain the step; then each step's idea, with what the run measured against the step
 * before.
 */
#ifndef MEMSCOPE_REPORT_LADDER_H
#define MEMSCOPE_REPORT_LADDER_H

#include "model.h"

/* The model's indices of the run's variants on the ladder, in step order (a run may hold only some steps);
 * returns how many. */
int report_ladder_order(const struct report_model *m, int order[MAX_VARIANTS]);
/* How many variants of the run are on the ladder (0: no ladder pages). */
int report_ladder_steps(const struct report_model *m);

#endif
