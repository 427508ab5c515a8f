/*
 * summary.csv, samples.csv and variants.csv of a run (their columns: schema.h). harness/run/ fills one row struct
 * per row from its jobs and variants; these functions write them. A number that is NAN and a text that is "" are
 * written as an empty field: "not measured", never zero. Whole numbers are written exactly (csv_real).
 */
#ifndef MEMSCOPE_SUMMARY_CSV_H
#define MEMSCOPE_SUMMARY_CSV_H

#include <stdint.h>

#include "../csv/writer.h"
#include "product_shape.h"
#include "schema.h"

/* The summary's columns of derived metrics, from global_load_efficiency_pct to fp64_pipe_pct. */
#define SUMMARY_HEADLINE_COLUMNS (SUMMARY_METRICS_WALL_MS - SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT)
#define SUMMARY_LIMITER_LEN 48
#define SUMMARY_EVIDENCE_LEN 256
#define SUMMARY_FINDING_LEN 32

/* One variant at one shape. */
struct summary_row {
    const char *variant, *precision, *layout;
    struct product_shape shape;
    const char *status, *reference;
    uint64_t seed;
    double max_error, rel_l2_error, tolerance;
    /* The timing; samples 0 (a failed check) with stop_reason "" and the statistics NAN. */
    int samples;
    const char *stop_reason;
    double min_ms, q1_ms, median_ms, q3_ms, max_ms, mean_ms, stdev_ms, ci95_rel;
    double flop, min_bytes, gflops, effective_gbs;
    /* The hardware metrics of the call's main kernel; metrics_kernel "" when none were collected. */
    const char *metrics_kernel;
    double headline[SUMMARY_HEADLINE_COLUMNS];
    double metrics_wall_ms, metrics_replay_ms, metrics_overhead_ms;
    /* The kernel's resources: NAN for a library call. */
    double registers_per_thread, static_smem_bytes, dynamic_smem_bytes, threads_per_block, theoretical_occupancy_pct;
    /* The source group's exact sums. */
    double shared_conflicts_exact, global_excess_sectors, source_wall_ms, source_gpu_ms;
    /* The diagnosis, as harness/run/ made it from the job's figures. */
    char limiter[SUMMARY_LIMITER_LEN], evidence[SUMMARY_EVIDENCE_LEN];
    /* The stalls group: the busiest kernel's samples and top reason. */
    double stall_samples;
    const char *stall_top_reason;
    double stall_top_pct, stall_wall_ms;
    const char *other_gpu_work;
    /* gflops as a share of the run's measured FP32 ceiling: NAN without one, or for an FP64 variant. */
    double fp32_roof_pct;
    /* The main kernel's tensor-core work: the type with the most operations ("" when none, or not collected), its
     * operations of all types, TFLOP/s, and that as a share of the run's measured roof of the type (NAN: no roof). */
    const char *tensor_type;
    double tensor_flop, tensor_tflops, tensor_roof_pct;
    /* The first of the kernel's findings (findings.csv holds them all): its cause, and its gain, an estimate. */
    char first_finding[SUMMARY_FINDING_LEN];
    double first_finding_gain_pct;
};

/* One timed run of a variant at a shape. */
struct sample_row {
    const char *variant, *precision;
    struct product_shape shape;
    int sample;
    double time_ms;
};

/* A variant as the registry describes it; ladder_step 0: off the FP32 ladder, tensor_ladder_step 0: off the bf16
 * tensor-core ladder. */
struct variant_row {
    const char *variant, *precision, *layout;
    unsigned block_x, block_y, tile_x, tile_y;
    int ladder_step;
    const char *description;
    int tensor_ladder_step;
};

/* A row with every field empty (texts "", numbers NAN, whole numbers 0), for the caller to fill what it measured. */
void summary_row_init(struct summary_row *r);

/* Each creates dir/<file> with its header; rows follow, then csv_close. */
int summary_csv_create(struct csv *c, const char *dir, struct error *e);
void summary_csv_row(struct csv *c, const struct summary_row *r);
int samples_csv_create(struct csv *c, const char *dir, struct error *e);
void samples_csv_row(struct csv *c, const struct sample_row *r);
int variants_csv_create(struct csv *c, const char *dir, struct error *e);
void variants_csv_row(struct csv *c, const struct variant_row *r);

#endif
