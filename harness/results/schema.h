/*
 * Every CSV file memscope writes or reads, with its columns in order: the one
 * definition the writers take their headers from and the readers their column
 * names. docs/results-folder.md documents each column of a results folder's files (tests/docs checks it).
 *
 * Each list is an X-macro: X(ID, "name", LIMIT). The IDs are the columns' positions
 * in files this version writes; readers must still look columns up by name,
 * since an older file may lack one. LIMIT is what a number in the column may
 * hold (value_limits.h: TEXT for a column of text): the folder reader refuses
 * any other value, so that every reader refuses the same file alike.
 *
 * A file keyed by size keys its rows by width (a square's, 0 for a rectangle) and, as its last three columns, the
 * product's rows, cols and inner (product_shape.h): a file from before them holds squares of its widths.
 */
#ifndef MEMSCOPE_SCHEMA_H
#define MEMSCOPE_SCHEMA_H

#include <stddef.h>

#include "../csv/reader.h"
#include "../csv/writer.h"
#include "value_limits.h"

#define SUMMARY_CSV(X)                                                                                                \
    X(SUMMARY_VARIANT, "variant", TEXT) X(SUMMARY_PRECISION, "precision", TEXT) X(SUMMARY_LAYOUT, "layout", TEXT)     \
    X(SUMMARY_WIDTH, "width", COUNT) X(SUMMARY_STATUS, "status", TEXT) X(SUMMARY_REFERENCE, "reference", TEXT)        \
    X(SUMMARY_SEED, "seed", COUNT) X(SUMMARY_MAX_ERROR, "max_error", RATIO)                                           \
    X(SUMMARY_REL_L2_ERROR, "rel_l2_error", RATIO) X(SUMMARY_TOLERANCE, "tolerance", RATIO)                           \
    X(SUMMARY_SAMPLES, "samples", COUNT) X(SUMMARY_STOP_REASON, "stop_reason", TEXT)                                  \
    X(SUMMARY_MIN_MS, "min_ms", TIME_MS) X(SUMMARY_Q1_MS, "q1_ms", TIME_MS)                                           \
    X(SUMMARY_MEDIAN_MS, "median_ms", TIME_MS) X(SUMMARY_Q3_MS, "q3_ms", TIME_MS)                                     \
    X(SUMMARY_MAX_MS, "max_ms", TIME_MS) X(SUMMARY_MEAN_MS, "mean_ms", TIME_MS)                                       \
    X(SUMMARY_STDEV_MS, "stdev_ms", SPAN_MS) X(SUMMARY_CI95_REL, "ci95_rel", RATIO) X(SUMMARY_FLOP, "flop", COUNT)    \
    X(SUMMARY_MIN_BYTES, "min_bytes", COUNT) X(SUMMARY_GFLOPS, "gflops", GFLOPS)                                      \
    X(SUMMARY_EFFECTIVE_GBS, "effective_gbs", GBS) X(SUMMARY_METRICS_KERNEL, "metrics_kernel", TEXT)                  \
    X(SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT, "global_load_efficiency_pct", PERCENT)                                      \
    X(SUMMARY_SECTORS_PER_REQUEST_LD, "sectors_per_request_ld", RATIO)                                                \
    X(SUMMARY_GLOBAL_STORE_EFFICIENCY_PCT, "global_store_efficiency_pct", PERCENT)                                    \
    X(SUMMARY_SECTORS_PER_REQUEST_ST, "sectors_per_request_st", RATIO)                                                \
    X(SUMMARY_SHARED_CONFLICTS_HW, "shared_conflicts_hw", COUNT)                                                      \
    X(SUMMARY_SHARED_EXCESS_ESTIMATE, "shared_excess_wavefronts_estimate", DIFFERENCE)                                \
    X(SUMMARY_DRAM_GBS, "dram_gbs", GBS) X(SUMMARY_DRAM_PCT_OF_PEAK, "dram_pct_of_peak", PERCENT)                     \
    X(SUMMARY_ACHIEVED_GFLOPS, "achieved_gflops", GFLOPS)                                                             \
    X(SUMMARY_ACHIEVED_OCCUPANCY_PCT, "achieved_occupancy_pct", PERCENT) X(SUMMARY_SOL_SM_PCT, "sol_sm_pct", PERCENT) \
    X(SUMMARY_SOL_MEMORY_PCT, "sol_memory_pct", PERCENT) X(SUMMARY_SOL_L1_PCT, "sol_l1_pct", PERCENT)                 \
    X(SUMMARY_SOL_L2_PCT, "sol_l2_pct", PERCENT) X(SUMMARY_SOL_DRAM_PCT, "sol_dram_pct", PERCENT)                     \
    X(SUMMARY_FMA_PIPE_PCT, "fma_pipe_pct", PERCENT) X(SUMMARY_ISSUE_SLOTS_PCT, "issue_slots_pct", PERCENT)           \
    X(SUMMARY_TENSOR_PIPE_PCT, "tensor_pipe_pct", PERCENT) X(SUMMARY_FP64_PIPE_PCT, "fp64_pipe_pct", PERCENT)         \
    X(SUMMARY_METRICS_WALL_MS, "metrics_wall_ms", SPAN_MS) X(SUMMARY_METRICS_REPLAY_MS, "metrics_replay_ms", SPAN_MS) \
    X(SUMMARY_METRICS_OVERHEAD_MS, "metrics_overhead_ms", NUMBER)                                                     \
    X(SUMMARY_REGISTERS_PER_THREAD, "registers_per_thread", COUNT)                                                    \
    X(SUMMARY_STATIC_SMEM_BYTES, "static_smem_bytes", COUNT)                                                          \
    X(SUMMARY_DYNAMIC_SMEM_BYTES, "dynamic_smem_bytes", COUNT)                                                        \
    X(SUMMARY_THREADS_PER_BLOCK, "threads_per_block", COUNT)                                                          \
    X(SUMMARY_THEORETICAL_OCCUPANCY_PCT, "theoretical_occupancy_pct", PERCENT)                                        \
    X(SUMMARY_SHARED_CONFLICTS_EXACT, "shared_conflicts_exact", DIFFERENCE)                                           \
    X(SUMMARY_GLOBAL_EXCESS_SECTORS, "global_excess_sectors", DIFFERENCE)                                             \
    X(SUMMARY_SOURCE_WALL_MS, "source_wall_ms", SPAN_MS) X(SUMMARY_SOURCE_GPU_MS, "source_gpu_ms", SPAN_MS)           \
    X(SUMMARY_LIMITER, "limiter", TEXT) X(SUMMARY_EVIDENCE, "evidence", TEXT)                                         \
    X(SUMMARY_STALL_SAMPLES, "stall_samples", COUNT) X(SUMMARY_STALL_TOP_REASON, "stall_top_reason", TEXT)            \
    X(SUMMARY_STALL_TOP_PCT, "stall_top_pct", PERCENT) X(SUMMARY_STALL_WALL_MS, "stall_wall_ms", SPAN_MS)             \
    X(SUMMARY_OTHER_GPU_WORK, "other_gpu_work", TEXT) X(SUMMARY_FP32_ROOF_PCT, "fp32_roof_pct", PERCENT) \
    X(SUMMARY_TENSOR_TYPE, "tensor_type", TEXT) X(SUMMARY_TENSOR_FLOP, "tensor_flop", COUNT)                          \
    X(SUMMARY_TENSOR_TFLOPS, "tensor_tflops", GFLOPS) X(SUMMARY_TENSOR_ROOF_PCT, "tensor_roof_pct", PERCENT)          \
    X(SUMMARY_FIRST_FINDING, "first_finding", TEXT)                                                                   \
    X(SUMMARY_FIRST_FINDING_GAIN_PCT, "first_finding_gain_pct", PERCENT)                                              \
    X(SUMMARY_ROWS, "rows", COUNT) X(SUMMARY_COLS, "cols", COUNT) X(SUMMARY_INNER, "inner", COUNT)

/* The variants a run measured, as the registry describes them; ladder_step orders the FP32 ladder (0: off it),
 * tensor_ladder_step the bf16 tensor-core ladder (a run before it had no such column: none on it). */
#define VARIANTS_CSV(X)                                                                                               \
    X(VARIANTS_VARIANT, "variant", TEXT) X(VARIANTS_PRECISION, "precision", TEXT) X(VARIANTS_LAYOUT, "layout", TEXT)  \
    X(VARIANTS_BLOCK_X, "block_x", COUNT) X(VARIANTS_BLOCK_Y, "block_y", COUNT) X(VARIANTS_TILE_X, "tile_x", COUNT)   \
    X(VARIANTS_TILE_Y, "tile_y", COUNT) X(VARIANTS_LADDER_STEP, "ladder_step", COUNT)                                 \
    X(VARIANTS_DESCRIPTION, "description", TEXT) X(VARIANTS_TENSOR_LADDER_STEP, "tensor_ladder_step", COUNT)

#define SAMPLES_CSV(X)                                                                                                \
    X(SAMPLES_VARIANT, "variant", TEXT) X(SAMPLES_PRECISION, "precision", TEXT) X(SAMPLES_WIDTH, "width", COUNT)      \
    X(SAMPLES_SAMPLE, "sample", COUNT) X(SAMPLES_TIME_MS, "time_ms", TIME_MS)                                         \
    X(SAMPLES_ROWS, "rows", COUNT) X(SAMPLES_COLS, "cols", COUNT) X(SAMPLES_INNER, "inner", COUNT)

#define METRICS_CSV(X)                                                                                                \
    X(METRICS_VARIANT, "variant", TEXT) X(METRICS_PRECISION, "precision", TEXT) X(METRICS_WIDTH, "width", COUNT)      \
    X(METRICS_KERNEL, "kernel", TEXT) X(METRICS_METRIC, "metric", TEXT) X(METRICS_VALUE, "value", BY_UNIT)            \
    X(METRICS_UNIT, "unit", TEXT)                                                                                     \
    X(METRICS_ROWS, "rows", COUNT) X(METRICS_COLS, "cols", COUNT) X(METRICS_INNER, "inner", COUNT)

/* One row per variant, size, kernel, source line and line metric (harness/source/source_metrics.h: line metrics), zeros left
 * out; file "" and line 0 hold the instructions of a kernel built without line information. */
#define LINES_CSV(X)                                                                                                  \
    X(LINES_VARIANT, "variant", TEXT) X(LINES_PRECISION, "precision", TEXT) X(LINES_WIDTH, "width", COUNT)            \
    X(LINES_KERNEL, "kernel", TEXT) X(LINES_FILE, "file", TEXT) X(LINES_LINE, "line", COUNT)                          \
    X(LINES_SOURCE, "source", TEXT) X(LINES_OPCODES, "opcodes", TEXT) X(LINES_METRIC, "metric", TEXT)                 \
    X(LINES_VALUE, "value", DIFFERENCE)                                                                               \
    X(LINES_ROWS, "rows", COUNT) X(LINES_COLS, "cols", COUNT) X(LINES_INNER, "inner", COUNT)

/* One row per variant, size, kernel and SASS instruction of a source capture (memscope-decode --instructions),
 * in the capture's order: offset is its byte offset in the kernel (CUPTI's PC offset), opcode its SASS opcode
 * ("?" without a disassembler), then its line metrics (harness/source/source_metrics.h), in that list's order and
 * under its names: a line's lines.csv value is the sum of its instructions' here. */
#define INSTRUCTIONS_CSV(X)                                                                                           \
    X(INSTRUCTIONS_VARIANT, "variant", TEXT) X(INSTRUCTIONS_PRECISION, "precision", TEXT)                             \
    X(INSTRUCTIONS_WIDTH, "width", COUNT) X(INSTRUCTIONS_KERNEL, "kernel", TEXT)                                      \
    X(INSTRUCTIONS_OFFSET, "offset", COUNT) X(INSTRUCTIONS_FILE, "file", TEXT) X(INSTRUCTIONS_LINE, "line", COUNT)    \
    X(INSTRUCTIONS_OPCODE, "opcode", TEXT) X(INSTRUCTIONS_INST_EXECUTED, "inst_executed", COUNT)                      \
    X(INSTRUCTIONS_SHARED_INSTRUCTIONS, "shared_instructions", COUNT)                                                 \
    X(INSTRUCTIONS_SHARED_LD_WAVEFRONTS, "shared_ld_wavefronts", COUNT)                                               \
    X(INSTRUCTIONS_SHARED_ST_WAVEFRONTS, "shared_st_wavefronts", COUNT)                                               \
    X(INSTRUCTIONS_SHARED_WAVEFRONTS, "shared_wavefronts", COUNT)                                                     \
    X(INSTRUCTIONS_SHARED_WAVEFRONTS_IDEAL, "shared_wavefronts_ideal", COUNT)                                         \
    X(INSTRUCTIONS_SHARED_EXCESS_WAVEFRONTS, "shared_excess_wavefronts", DIFFERENCE)                                  \
    X(INSTRUCTIONS_GLOBAL_LD_REQUESTS, "global_ld_requests", COUNT)                                                   \
    X(INSTRUCTIONS_GLOBAL_ST_REQUESTS, "global_st_requests", COUNT)                                                   \
    X(INSTRUCTIONS_GLOBAL_LD_SECTORS, "global_ld_sectors", COUNT)                                                     \
    X(INSTRUCTIONS_GLOBAL_ST_SECTORS, "global_st_sectors", COUNT)                                                     \
    X(INSTRUCTIONS_GLOBAL_SECTORS, "global_sectors", COUNT)                                                           \
    X(INSTRUCTIONS_GLOBAL_SECTORS_IDEAL, "global_sectors_ideal", COUNT)                                               \
    X(INSTRUCTIONS_GLOBAL_EXCESS_SECTORS, "global_excess_sectors", DIFFERENCE)                                        \
    X(INSTRUCTIONS_THREAD_INST_EXECUTED, "thread_inst_executed", COUNT)                                               \
    X(INSTRUCTIONS_PREDICATED_OFF_LANES, "predicated_off_lanes", COUNT)                                               \
    X(INSTRUCTIONS_CONVERSIONS, "conversions", COUNT)                                                                 \
    X(INSTRUCTIONS_ROWS, "rows", COUNT) X(INSTRUCTIONS_COLS, "cols", COUNT) X(INSTRUCTIONS_INNER, "inner", COUNT)

/* One row per variant, size, kernel, source line and stall reason (cupti/pc_sampling.h), zeros left out: the
 * warp samples PC sampling took there. A kernel's share of a reason is its rows' samples over all its rows'. */
#define STALLS_CSV(X)                                                                                                 \
    X(STALLS_VARIANT, "variant", TEXT) X(STALLS_PRECISION, "precision", TEXT) X(STALLS_WIDTH, "width", COUNT)         \
    X(STALLS_KERNEL, "kernel", TEXT) X(STALLS_FILE, "file", TEXT) X(STALLS_LINE, "line", COUNT)                       \
    X(STALLS_SOURCE, "source", TEXT) X(STALLS_REASON, "reason", TEXT) X(STALLS_SAMPLES, "samples", COUNT)             \
    X(STALLS_ROWS, "rows", COUNT) X(STALLS_COLS, "cols", COUNT) X(STALLS_INNER, "inner", COUNT)

#define ENVIRONMENT_CSV(X) X(ENVIRONMENT_KEY, "key", TEXT) X(ENVIRONMENT_VALUE, "value", TEXT)

/* One row per NVTX range of a traced run (--trace), in the order they closed: the trace.json ranges, for the
 * report's timeline page. job is "<variant> W=<width>" (a rectangle's "<variant> <rows>x<cols>x<inner>", width 0)
 * for a job's ranges, "" for the run's and the metric passes'; depth 0 is the run; times in milliseconds from the
 * run's first range. */
#define TIMELINE_CSV(X)                                                                                               \
    X(TIMELINE_RANGE, "range", TEXT) X(TIMELINE_JOB, "job", TEXT) X(TIMELINE_WIDTH, "width", COUNT)                   \
    X(TIMELINE_DEPTH, "depth", COUNT) X(TIMELINE_START_MS, "start_ms", NUMBER)                                       \
    X(TIMELINE_DURATION_MS, "duration_ms", SPAN_MS)

/* One row per kernel launch of a profiled program (memscope-profile), in launch order: ordinal from 0 over the
 * program's launches, kernel_ordinal from 0 over those of the same kernel at the same nvtx_path (the program's NVTX
 * ranges open on the launching thread, outer/inner); selected 1 for the launches the selection took; job the
 * launch's job, the key of the profile's other files (job_name.h); run which run of the program (1 to repeat). */
#define LAUNCHES_CSV(X)                                                                                               \
    X(LAUNCHES_ORDINAL, "ordinal", COUNT) X(LAUNCHES_KERNEL, "kernel", TEXT) X(LAUNCHES_MANGLED, "mangled", TEXT)     \
    X(LAUNCHES_NVTX_PATH, "nvtx_path", TEXT) X(LAUNCHES_KERNEL_ORDINAL, "kernel_ordinal", COUNT)                      \
    X(LAUNCHES_GRID_X, "grid_x", COUNT) X(LAUNCHES_GRID_Y, "grid_y", COUNT) X(LAUNCHES_GRID_Z, "grid_z", COUNT)       \
    X(LAUNCHES_BLOCK_X, "block_x", COUNT) X(LAUNCHES_BLOCK_Y, "block_y", COUNT) X(LAUNCHES_BLOCK_Z, "block_z", COUNT) \
    X(LAUNCHES_DYNAMIC_SMEM_BYTES, "dynamic_smem_bytes", COUNT)                                                       \
    X(LAUNCHES_STATIC_SMEM_BYTES, "static_smem_bytes", COUNT)                                                         \
    X(LAUNCHES_REGISTERS_PER_THREAD, "registers_per_thread", COUNT)                                                   \
    X(LAUNCHES_DURATION_NS, "duration_ns", DURATION_NS) X(LAUNCHES_SELECTED, "selected", COUNT)                       \
    X(LAUNCHES_JOB, "job", TEXT) X(LAUNCHES_RUN, "run", COUNT) X(LAUNCHES_NOT_REPLAYED, "not_replayed", TEXT)       \
    X(LAUNCHES_START_NS, "start_ns", COUNT) X(LAUNCHES_GRAPH, "graph", COUNT)

/* A program's profile read by kernel (harness/program/kernels.h), one row per kernel (nvtx_range: the innermost NVTX
 * range it ran in where the rows are grouped by range, "" otherwise), the busiest first, as Nsight Systems'
 * cuda_gpu_kern_sum: its launches over every process and run, their total time and its share of all kernels',
 * their mean, median, least, most and spread; the processes that launched it; the job whose hardware metrics stand
 * for it (its first profiled launch, "" where none was) and that job's status. */
#define KERNELS_CSV(X)                                                                                                \
    X(KERNELS_KERNEL, "kernel", TEXT) X(KERNELS_NVTX_RANGE, "nvtx_range", TEXT) X(KERNELS_LAUNCHES, "launches", COUNT) \
    X(KERNELS_SHARE_PCT, "share_pct", PERCENT) X(KERNELS_TOTAL_MS, "total_ms", TOTAL_MS)                              \
    X(KERNELS_MEAN_MS, "mean_ms", SPAN_MS) X(KERNELS_MEDIAN_MS, "median_ms", SPAN_MS)                                \
    X(KERNELS_MIN_MS, "min_ms", SPAN_MS) X(KERNELS_MAX_MS, "max_ms", SPAN_MS) X(KERNELS_STDEV_MS, "stdev_ms", SPAN_MS) \
    X(KERNELS_PROCESSES, "processes", COUNT) X(KERNELS_PROFILED_JOB, "profiled_job", TEXT)                           \
    X(KERNELS_STATUS, "status", TEXT) X(KERNELS_AUTOTUNING_LAUNCHES, "autotuning_launches", COUNT)                   \
    X(KERNELS_AUTOTUNING_MS, "autotuning_ms", TOTAL_MS)

/* A multi-process program's collectives (harness/program/collectives.h), one row per collective and rank: the
 * collective's number (from 0, in each rank's call order), its kernel, the part, its start on the common clock (ms
 * from the first collective's first start), its duration, the wait for the last rank to arrive and the transfer after
 * it (duration = wait + transfer), the part that arrived last, and how many of that part's launches memscope
 * replayed for metrics since its collective before (a wait they caused is memscope's, not the program's). */
#define COLLECTIVES_CSV(X)                                                                                            \
    X(COLLECTIVES_COLLECTIVE, "collective", COUNT) X(COLLECTIVES_KERNEL, "kernel", TEXT)                              \
    X(COLLECTIVES_PART, "part", TEXT) X(COLLECTIVES_START_MS, "start_ms", SPAN_MS)                                    \
    X(COLLECTIVES_DURATION_MS, "duration_ms", SPAN_MS) X(COLLECTIVES_WAIT_MS, "wait_ms", SPAN_MS)                     \
    X(COLLECTIVES_TRANSFER_MS, "transfer_ms", SPAN_MS) X(COLLECTIVES_LAST_ARRIVAL, "last_arrival", TEXT)              \
    X(COLLECTIVES_REPLAYS_BEFORE, "replays_before", COUNT)

/* One row per kernel and finding of a profiled variant or job (harness/diagnose/findings.h), in rank order from 1:
 * its cause (a rule's name), scope (global: its unit bounds the kernel; local), estimated gain (an estimate, % of
 * the kernel's time), evidence (figures) and line ("file:line" with the most of its waste; "" where not known). */
#define FINDINGS_CSV(X)                                                                                               \
    X(FINDINGS_VARIANT, "variant", TEXT) X(FINDINGS_PRECISION, "precision", TEXT) X(FINDINGS_WIDTH, "width", COUNT)   \
    X(FINDINGS_KERNEL, "kernel", TEXT) X(FINDINGS_RANK, "rank", COUNT) X(FINDINGS_CAUSE, "cause", TEXT)               \
    X(FINDINGS_SCOPE, "scope", TEXT) X(FINDINGS_ESTIMATED_GAIN_PCT, "estimated_gain_pct", PERCENT)                   \
    X(FINDINGS_EVIDENCE, "evidence", TEXT) X(FINDINGS_LINE, "line", TEXT)                                             \
    X(FINDINGS_ROWS, "rows", COUNT) X(FINDINGS_COLS, "cols", COUNT) X(FINDINGS_INNER, "inner", COUNT)

#define VALIDATE_CSV(X)                                                                                               \
    X(VALIDATE_KERNEL, "kernel", TEXT) X(VALIDATE_PARAMETER, "parameter", TEXT) X(VALIDATE_METRIC, "metric", TEXT)    \
    X(VALIDATE_EXPECTED, "expected", NUMBER) X(VALIDATE_LOWER, "lower", NUMBER) X(VALIDATE_UPPER, "upper", NUMBER)    \
    X(VALIDATE_MEASURED, "measured", NUMBER) X(VALIDATE_STATUS, "status", TEXT)                                       \
    X(VALIDATE_EXPECTED_CAUSE, "expected_cause", TEXT) X(VALIDATE_FOUND_CAUSE, "found_cause", TEXT)                   \
    X(VALIDATE_ESTIMATED_GAIN_PCT, "estimated_gain_pct", PERCENT)                                                     \
    X(VALIDATE_MEASURED_GAIN_PCT, "measured_gain_pct", NUMBER)

#define COMPARE_CSV(X)                                                                                                \
    X(COMPARE_VARIANT, "variant", TEXT) X(COMPARE_PRECISION, "precision", TEXT) X(COMPARE_WIDTH, "width", COUNT)      \
    X(COMPARE_BASE_SAMPLES, "base_samples", COUNT) X(COMPARE_HEAD_SAMPLES, "head_samples", COUNT)                     \
    X(COMPARE_BASE_MEDIAN_MS, "base_median_ms", TIME_MS) X(COMPARE_HEAD_MEDIAN_MS, "head_median_ms", TIME_MS)         \
    X(COMPARE_CHANGE_PCT, "change_pct", NUMBER) X(COMPARE_INTERVAL_LOW_PCT, "interval_low_pct", NUMBER)               \
    X(COMPARE_INTERVAL_HIGH_PCT, "interval_high_pct", NUMBER) X(COMPARE_P_VALUE, "p_value", RATIO)                    \
    X(COMPARE_VERDICT, "verdict", TEXT) X(COMPARE_REASON, "reason", TEXT) X(COMPARE_FLOOR_PCT, "floor_pct", NUMBER)   \
    X(COMPARE_ROWS, "rows", COUNT) X(COMPARE_COLS, "cols", COUNT) X(COMPARE_INNER, "inner", COUNT)                    \
    X(COMPARE_LABEL, "label", TEXT) X(COMPARE_P_HOLM, "p_holm", RATIO)

#define COMPARE_METRICS_CSV(X)                                                                                        \
    X(COMPARE_METRICS_VARIANT, "variant", TEXT) X(COMPARE_METRICS_WIDTH, "width", COUNT)                              \
    X(COMPARE_METRICS_METRIC, "metric", TEXT) X(COMPARE_METRICS_BASE, "base", NUMBER)                                 \
    X(COMPARE_METRICS_HEAD, "head", NUMBER) X(COMPARE_METRICS_CHANGE_PCT, "change_pct", NUMBER)                       \
    X(COMPARE_METRICS_KIND, "kind", TEXT) X(COMPARE_METRICS_BASE_LOW, "base_low", NUMBER)                             \
    X(COMPARE_METRICS_BASE_HIGH, "base_high", NUMBER) X(COMPARE_METRICS_HEAD_LOW, "head_low", NUMBER)                 \
    X(COMPARE_METRICS_HEAD_HIGH, "head_high", NUMBER) X(COMPARE_METRICS_BASE_COLLECTIONS, "base_collections", COUNT)  \
    X(COMPARE_METRICS_HEAD_COLLECTIONS, "head_collections", COUNT) X(COMPARE_METRICS_ROWS, "rows", COUNT)             \
    X(COMPARE_METRICS_COLS, "cols", COUNT) X(COMPARE_METRICS_INNER, "inner", COUNT)

/* A source line's count that differs between two runs (memscope-compare -o): kind is "new" (absent in base),
 * "gone" (absent in head) or "changed". */
#define COMPARE_LINES_CSV(X)                                                                                          \
    X(COMPARE_LINES_VARIANT, "variant", TEXT) X(COMPARE_LINES_WIDTH, "width", COUNT)                                  \
    X(COMPARE_LINES_KERNEL, "kernel", TEXT) X(COMPARE_LINES_FILE, "file", TEXT) X(COMPARE_LINES_LINE, "line", COUNT)  \
    X(COMPARE_LINES_METRIC, "metric", TEXT) X(COMPARE_LINES_BASE, "base", NUMBER)                                     \
    X(COMPARE_LINES_HEAD, "head", NUMBER) X(COMPARE_LINES_KIND, "kind", TEXT)                                         \
    X(COMPARE_LINES_ROWS, "rows", COUNT) X(COMPARE_LINES_COLS, "cols", COUNT) X(COMPARE_LINES_INNER, "inner", COUNT)

/* The run's key, then summary columns copied as they are (the same names); an older summary may lack the
 * columns from HISTORY_Q1_MS on. */
#define HISTORY_CSV(X)                                                                                                \
    X(HISTORY_COMMIT, "commit", TEXT) X(HISTORY_DIRTY, "dirty", TEXT) X(HISTORY_GPU_NAME, "gpu_name", TEXT)           \
    X(HISTORY_TIME_UTC, "time_utc", TEXT) X(HISTORY_VARIANT, "variant", TEXT) X(HISTORY_PRECISION, "precision", TEXT) \
    X(HISTORY_WIDTH, "width", COUNT) X(HISTORY_SAMPLES, "samples", COUNT) X(HISTORY_MEDIAN_MS, "median_ms", TIME_MS)  \
    X(HISTORY_Q1_MS, "q1_ms", TIME_MS) X(HISTORY_Q3_MS, "q3_ms", TIME_MS) X(HISTORY_GFLOPS, "gflops", GFLOPS)         \
    X(HISTORY_GLOBAL_LOAD_EFFICIENCY_PCT, "global_load_efficiency_pct", PERCENT)                                      \
    X(HISTORY_SHARED_CONFLICTS_EXACT, "shared_conflicts_exact", DIFFERENCE) X(HISTORY_DRAM_GBS, "dram_gbs", GBS)      \
    X(HISTORY_ROWS, "rows", COUNT) X(HISTORY_COLS, "cols", COUNT) X(HISTORY_INNER, "inner", COUNT)

#define SCHEMA_ID(id, name, limit) id,
enum summary_column { SUMMARY_CSV(SCHEMA_ID) SUMMARY_COLUMNS };
enum samples_column { SAMPLES_CSV(SCHEMA_ID) SAMPLES_COLUMNS };
enum variants_column { VARIANTS_CSV(SCHEMA_ID) VARIANTS_COLUMNS };
enum metrics_column { METRICS_CSV(SCHEMA_ID) METRICS_COLUMNS };
enum lines_column { LINES_CSV(SCHEMA_ID) LINES_COLUMNS };
enum instructions_column { INSTRUCTIONS_CSV(SCHEMA_ID) INSTRUCTIONS_COLUMNS };
enum stalls_column { STALLS_CSV(SCHEMA_ID) STALLS_COLUMNS };
enum environment_column { ENVIRONMENT_CSV(SCHEMA_ID) ENVIRONMENT_COLUMNS };
enum timeline_column { TIMELINE_CSV(SCHEMA_ID) TIMELINE_COLUMNS };
enum launches_column { LAUNCHES_CSV(SCHEMA_ID) LAUNCHES_COLUMNS };
enum kernels_column { KERNELS_CSV(SCHEMA_ID) KERNELS_COLUMNS };
enum collectives_column { COLLECTIVES_CSV(SCHEMA_ID) COLLECTIVES_COLUMNS };
enum validate_column { VALIDATE_CSV(SCHEMA_ID) VALIDATE_COLUMNS };
enum findings_column { FINDINGS_CSV(SCHEMA_ID) FINDINGS_COLUMNS };
enum compare_column { COMPARE_CSV(SCHEMA_ID) COMPARE_COLUMNS };
enum compare_metrics_column { COMPARE_METRICS_CSV(SCHEMA_ID) COMPARE_METRICS_COLUMNS };
enum compare_lines_column { COMPARE_LINES_CSV(SCHEMA_ID) COMPARE_LINES_COLUMNS };
enum history_column { HISTORY_CSV(SCHEMA_ID) HISTORY_COLUMNS };
#undef SCHEMA_ID

/* Variants in one run, and so in one results folder. */
#define MAX_VARIANTS 64

struct csv_schema {
    const char *file; /* its name in a results folder (history: the default name) */
    int n;
    const char *const *columns;
    const enum value_limit *limits; /* per column, what a value in it may hold */
};

extern const struct csv_schema summary_csv, samples_csv, variants_csv, metrics_csv, lines_csv, stalls_csv, environment_csv,
    timeline_csv, validate_csv, findings_csv, compare_csv, compare_metrics_csv, compare_lines_csv, history_csv;
/* memscope-profile's injection library writes it into a program's profile; memscope-profile the other two. */
extern const struct csv_schema launches_csv, kernels_csv, collectives_csv;
/* memscope-decode --instructions writes it, and a program's profile with the source group; the suite's run does not
 * (lines.csv is the sum of its rows per line). */
extern const struct csv_schema instructions_csv;

/* The schema of a results folder's file by its name ("metrics.csv"), or NULL. */
const struct csv_schema *schema_of_results_file(const char *file);

/* Creates dir/<schema's file> with the schema's header. */
int schema_create(struct csv *c, const char *dir, const struct csv_schema *s, struct error *e);
/* Writes rows of the schema's file to an open stream; with_header 0 appends to a file that has it. */
void schema_on_stream(struct csv *c, FILE *stream, const char *name, const struct csv_schema *s, int with_header);
/* The index in t of the schema's column id, or an error that names the file and the column. */
int schema_column(const struct csv_table *t, const struct csv_schema *s, int id, int *column, struct error *e);
/* The same for the columns before end (a file from before the later ones, the shape's, were added). */
int schema_columns_before(const struct csv_table *t, const struct csv_schema *s, int end, int *column,
                          struct error *e);
/* The same, or -1 for a column an older file may lack. */
int schema_column_or_none(const struct csv_table *t, const struct csv_schema *s, int id);
/* Whether t's header is exactly the schema's columns, in order. */
int schema_header_matches(const struct csv_table *t, const struct csv_schema *s);
/* Whether t's header is the schema's first columns, at least `least` of them: a file written before the schema's last
 * columns were added. */
int schema_header_starts(const struct csv_table *t, const struct csv_schema *s, int least);

#endif
