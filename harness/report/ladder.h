/*
 * The ladder pages, for each of the registry's ladders (the FP32 ladder, naive to cuBLAS; the bf16 tensor-core
 * ladder, mma.sync to cuBLAS bf16): the run's steps at its largest width, ordered by variants.csv's ladder_step or
 * tensor_ladder_step (the registry's order): each step's speed, against its library and against the step before it
 * in the run, beside the counters that explain the step; then each step's idea, with what the run measured against
 * the step before.
 */
#ifndef MEMSCOPE_REPORT_LADDER_H
#define MEMSCOPE_REPORT_LADDER_H

#include "model.h"

/* A ladder as the pages name it: its name, its last step, the library its rungs are measured against (the anchor
 * of its precision, model.h), and the library's name. */
struct report_ladder {
    const char *name, *reference, *reference_label;
};
struct report_ladder report_ladder_of(enum results_ladder ladder);
/* The model's index of the ladder's fastest hand-written rung that passed at size (its library aside), or -1. */
int report_ladder_fastest(const struct report_model *m, enum results_ladder ladder, struct product_shape size);

/* The model's indices of the run's variants on the ladder, in step order (a run may hold only some steps);
 * returns how many. */
int report_ladder_order(const struct report_model *m, enum results_ladder ladder, int order[MAX_VARIANTS]);
/* How many variants of the run are on the ladder (0: no ladder pages). */
int report_ladder_steps(const struct report_model *m, enum results_ladder ladder);

#endif
