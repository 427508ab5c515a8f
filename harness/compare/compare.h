/*
 * memscope-compare's judgement of two sides: a timing verdict per variant x
 * shape (a program's profile: per kernel, program/kernels.h), and every change in
 * the metrics that do not depend on timing.
 */
#ifndef MEMSCOPE_COMPARE_H
#define MEMSCOPE_COMPARE_H

#include <stdbool.h>

#include "../results/job_name.h"
#include "../results/product_shape.h"
#include "side.h"
#include "verdict.h"

#define COMPARE_MAX_METRIC_CHANGES 4096

enum pair_state { PAIR_COMPARED, PAIR_ONLY_BASE, PAIR_ONLY_HEAD, PAIR_HEAD_FAILED, PAIR_BASE_FAILED };

/* variant: a suite's variant, or a program's kernel by its key (program/kernels.h: its demangled name, or its NVTX
 * range and name, or its launch's job), which pairs by the whole key; label: how the table names it (a kernel's
 * shortened name, program/labels.h; the variant itself otherwise). */
struct compared_pair {
    char variant[JOB_NAME_LEN], precision[16], label[JOB_NAME_LEN];
    struct product_shape shape; /* a program's kernel: 0 x 0 x 0 */
    enum pair_state state;
    struct timing_comparison timing;
    bool refused; /* its timing given no verdict (other work, or another process on the GPU): not in the family */
};

/* SCHEDULING: a count that moved between two collections of one side (it depends on how the run scheduled the work),
 * within the spread the sides showed; SCHEDULING_BEYOND: the head's collections left the base's range by more than
 * that spread; UNCONFIRMED: a count timing can steer (the catalog's TIMING_STEERED_METRICS) that moved between the
 * sides where a side has one collection, which cannot show it moving; LAUNCH_DIFFERS: a program's kernel profiled at
 * launches of another block, grid or dynamic shared memory on the two sides, whose counts are not compared (the
 * change names the launch property); INPUTS: a program's count that moved between sides
 * of one collection (the program's data need not be the same twice). None is gated. */
enum metric_change_kind {
    METRIC_REGRESSION,
    METRIC_IMPROVEMENT,
    METRIC_DRAM_CHANGE,
    METRIC_SCHEDULING,
    METRIC_SCHEDULING_BEYOND,
    METRIC_UNCONFIRMED,
    METRIC_LAUNCH_DIFFERS,
    METRIC_INPUTS
};

struct metric_change {
    char variant[JOB_NAME_LEN], metric[96];
    int pair; /* its pair in the comparison, which names it */
    struct product_shape shape;
    double base, head;                          /* medians over the side's collections */
    double base_low, base_high, head_low, head_high; /* the least and most a side's collections read */
    int base_collections, head_collections;
    enum metric_change_kind kind;
};

struct compare_options {
    struct verdict_rules rules;
    double dram_tolerance; /* relative change of DRAM GB/s worth reporting (0.10) */
    bool force;            /* compare different GPUs, drivers or clocks anyway */
    bool ignore_metrics;   /* metric regressions do not set the exit code */
};

struct comparison {
    struct compared_pair *pair; /* as many as the sides have units: a program may have thousands of kernels */
    int pairs;
    struct metric_change change[COMPARE_MAX_METRIC_CHANGES];
    int changes;
    int base_collections, head_collections; /* rounds that collected metrics, a side; 0 on both when either has none */
    int base_rounds, head_rounds;           /* results folders a side */
    int tested;                             /* pairs whose rank test ran and judged them: Holm's family */
};

/* Whether a pair's timing ran its rank test and is judged by it (in Holm's family): compared, not refused, enough
 * samples. */
bool compared_pair_tested(const struct compared_pair *p);

int compare_run(const struct compare_side *base, const struct compare_side *head, const struct compare_options *o,
                struct comparison *c, struct error *e);
void comparison_free(struct comparison *c);

/* Geometric mean of head/base medians over the compared pairs; NAN when none. */
double comparison_geomean_ratio(const struct comparison *c);

/* 0 no regression; 1 a SLOWER verdict, a variant that failed its check in head, or
 * (unless ignored) a metric regression. */
int comparison_exit_code(const struct comparison *c, const struct compare_options *o);

#endif
