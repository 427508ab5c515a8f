/*
 * Steps in a series of run times: where the level of a job's median time changed, from one commit on.
 *
 * The method is a penalised piecewise-constant fit, found exactly by optimal partitioning with PELT's pruning
 * (Killick, Fearnhead and Eckley, "Optimal detection of changepoints with a linear computational cost", JASA
 * 2012), on the logarithm of the medians, so that a step is a ratio. The cost of a segment is its squared
 * deviations over the series' noise variance, and each step costs penalty x ln(n) more (the Schwarz criterion
 * at penalty 2). The noise is the series' own between-run scatter, estimated robustly, so that the steps
 * themselves do not inflate it: 1.4826 x the median absolute deviation of consecutive differences, over
 * sqrt(2). Adjacent levels closer than the floor are then merged: a step is a change a reader would act on.
 * A step may fall only where the series moves to another commit (or to uncommitted changes), never between
 * runs of one commit. The defaults were tuned on synthetic series with the between-run noise of the committed
 * H100 history (tests/history/test_steps.c prints the rates they reach).
 */
#ifndef MEMSCOPE_HISTORY_STEPS_H
#define MEMSCOPE_HISTORY_STEPS_H

#include <stdbool.h>

#define STEPS_DEFAULT_FLOOR 0.02
#define STEPS_DEFAULT_PENALTY 3.0

struct step_rules {
    double floor;   /* the smallest step reported, relative: 0.02 is 2 % */
    double penalty; /* what one more step costs, in units of the noise variance x ln(n) */
};

struct step {
    int at;                   /* the first point of the new level */
    double change, low, high; /* relative change of the level and its 95 % interval: +0.043 is 4.3 % slower */
};

/* The between-run noise of a series of logarithms (relative), as above, into *noise: 0 with fewer than 3 points.
 * -1 when memory runs out. */
int steps_noise(const double *y, int n, double *noise);

/* The steps of y[0..n) (logarithms of the medians, in run order), at most max of them into out, in order; how
 * many, or -1 when memory runs out. may_step[i]: whether a step may fall before point i. level[i], where
 * given, receives the fitted level of point i (a logarithm, like y). */
int steps_find(const double *y, const bool *may_step, int n, const struct step_rules *rules, struct step *out, int max,
               double *level);

#endif
