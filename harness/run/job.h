/*
 * One variant at one size, through every phase: allocate, copy in, compute
 * the reference, verify against it, warm up, timed runs, copy out (and check
 * the last timed result again), release. When metrics are collected (or with
 * --keep-operands), a job that passed keeps its device operands until every
 * variant of its size has run; the metric passes then profile them all
 * together (see profile/collect.h).
 * Timing and metrics are separate phases because replay distorts time. A
 * variant that fails verification is recorded as failed and neither timed
 * nor profiled.
 */
#ifndef MEMSCOPE_JOB_H
#define MEMSCOPE_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "../check/check.h"
#include "../csv/writer.h"
#include "../diagnose/findings.h"
#include "cli.h"
#include "../gpu/gpu.h"
#include "../gpu/kernel_facts.h"
#include "../profile/collect.h"
#include "../source/collect.h"
#include "../source/source_metrics.h"
#include "../stalls/collect.h"
#include "progress.h"
#include "timing.h"

/* What every job of a run shares. metrics is NULL when no metric is collected. */
struct job_context {
    struct gpu *gpu;
    const struct timing_policy *policy;
    struct progress *progress;
    struct metrics_collector *metrics;
    struct source_collector *source; /* NULL without the source group */
    struct csv *lines;               /* lines.csv, open while the run lasts, with the source group */
    struct stall_collector *stalls;  /* NULL without the stalls group */
    struct csv *stalls_csv;          /* stalls.csv, open while the run lasts, with the stalls group */
    const char *capture_dir;
    bool keep_operands; /* until the size is done: for its metric passes, or for another profiler */
    bool keep_sampled;  /* with the stalls group: until the size is profiled after all are sampled (they all fit) */
};

struct job_result {
    const struct matmul_variant *variant;
    struct matmul_shape shape;
    struct product_shape key; /* the shape as the run's files key it */
    uint64_t seed;
    const char *reference;
    struct check_result check;     /* the first, poisoned-output run */
    struct check_result recheck;   /* the output of the last timed run */
    bool passed;
    struct timing timing;          /* empty when the check failed */
    unsigned long long timed_from_us, timed_until_us; /* the warm-up and timed runs, on NVML's clock */
    char other_gpu_work[256];      /* who else used the GPU then (job_judge_disturbance) */
    bool profiled;
    struct profile profile;        /* hardware metrics, when profiled */
    struct matmul_operands kept;   /* device operands kept until the size is done (kept.p NULL: none) */
    struct kernel_facts facts;     /* the kernel's resources and theoretical occupancy (not known: a library) */
    bool sourced;                  /* the source group ran */
    struct source_cost source_cost;
    double source_totals[LINE_METRIC_COUNT]; /* the main kernel's, summed over its instructions */
    struct finding_lines lines;    /* the main kernel's lines with the most excess, for its findings */
    bool sampled;                  /* the stalls group ran */
    struct stall_summary stalls;
};

/* Device memory one job needs at this shape, for the check before anything is allocated, and what it keeps
 * until its size is done. */
size_t job_device_bytes(const struct matmul_variant *v, struct matmul_shape shape);
size_t job_kept_bytes(const struct matmul_variant *v, struct matmul_shape shape);

/* Only errors that stop the run return non-zero; a failed check is a result. */
int job_run(const struct job_context *ctx, const struct matmul_variant *v, struct matmul_shape shape, uint64_t seed,
            struct job_result *r, struct error *e);

/* The check alone: poisoned output, one launch, compared with the reference (the GPU tests use this). */
int job_check(struct gpu *g, const struct matmul_variant *v, struct matmul_shape shape, uint64_t seed,
              struct check_result *check, struct error *e);

/* Who else used the GPU while the job was timed, into other_gpu_work. NVML publishes a sample at the end of its
 * period, so this waits until a period has passed since the timing ended, unless it has (job_disturbance_settled). */
void job_judge_disturbance(struct job_result *r);
/* Whether a period has passed since the job's timing ended (or it was not timed): judging it waits not at all. */
bool job_disturbance_settled(const struct job_result *r);

/* The call that profiles a job which kept its operands. */
void job_profiled_call(struct job_result *r, struct profiled_call *call);
/* Makes a passed job's operands again from its seed, as kept operands (after they were released). */
int job_restore_operands(struct gpu *g, struct job_result *r, struct error *e);
/* Frees the operands a job kept, if any. */
void job_release_kept(struct job_result *r, struct error *e);

void job_free(struct job_result *r);

#endif
