/*
 * A results folder read back (by the report and the comparison): its
 * environment, summary and samples, and when present its metrics and the
 * ground-truth check of `memscope --validate` (validate/validate.csv).
 */
#ifndef MEMSCOPE_RESULTS_FOLDER_H
#define MEMSCOPE_RESULTS_FOLDER_H

#include "../csv/name_index.h"
#include "../common/paths.h"
#include "../csv/reader.h"
#include "product_shape.h"

/* The registry's two ladders (variants.csv's ladder_step and tensor_ladder_step): FP32 from the first lesson to
 * cuBLAS, and bf16 tensor cores to cuBLAS bf16. */
enum results_ladder { RESULTS_FP32_LADDER, RESULTS_TENSOR_LADDER, RESULTS_LADDERS };

struct results_folder {
    char dir[PATH_LEN];
    struct csv_table environment, summary, samples, metrics, validate, variants, findings;
    int has_metrics, has_validate, has_variants; /* variants.csv: runs from 2026-11-22 on */
    int has_findings;                            /* findings.csv: runs since issue 40 that collected metrics */
    /* Columns of the summary every reader needs. */
    int col_variant, col_precision, col_status, col_samples, col_median_ms;
    struct product_shape *summary_shape; /* per summary row, parsed when the folder is opened */
    int *summary_samples;                /* likewise */
    /* The summary's shapes, each once, in the order they first appear: the rows' keys hold their index. */
    struct product_shape *shapes;
    int n_shapes;
    struct name_index summary_rows;        /* (variant, shape) -> its summary row */
    int *sample_summary_row;               /* per samples row: the summary row it is a sample of */
    double *sample_ms;
    /* Columns of metrics.csv, when it is there. */
    int metric_col_variant, metric_col_metric, metric_col_value, metric_col_kernel;
    /* The rows of each (variant, shape): the first by metric_rows, each one's next in metric_next (-1 after the
     * last), so that a metric of a job is found among its own rows alone. */
    struct name_index metric_rows;
    int *metric_next;
    int *ladder_step[RESULTS_LADDERS]; /* per variants row, per ladder */
};

/* Refuses a folder that is missing, still being written (.partial), lacks a
 * file or a column, holds a value outside its column's limit (value_limits.h:
 * every file of the folder is checked, whether or not the reader draws it), or
 * whose samples do not add up to the summary's counts. */
int results_folder_open(const char *dir, struct results_folder *r, struct error *e);
/* The same for the writer still filling dir (its .partial): memscope-profile reads back the summary it wrote to
 * write the files made from it. */
int results_folder_open_being_written(const char *dir, struct results_folder *r, struct error *e);
void results_folder_close(struct results_folder *r);

struct csv_schema;
/* A file of a results folder that a run may not have written (lines.csv, stalls.csv), by its schema: read into t
 * and its values checked when dir holds it, else *present 0 and nothing read. */
int results_read_optional(const char *dir, const struct csv_schema *s, struct csv_table *t, int *present,
                          struct error *e);

/* Whether dir is there and a folder; else an error that says which it is not. */
int results_folder_exists(const char *dir, struct error *e);

/* One file of a results folder, wherever it lies (a copy the Python scripts are given), read as a file of schema s
 * and its values and the columns its readers need checked, as the folder reader checks them. */
int results_file_check(const char *path, const struct csv_schema *s, struct error *e);

/* A file memscope wrote by schema s outside a results folder (memscope-compare's compare.csv, which the report
 * draws): read into t (the caller frees it), refused (naming the file, nothing left to free) unless its header is the
 * schema's first columns, at least `least` of them (an older memscope's file lacks the last ones). */
int results_read_written(const char *path, const struct csv_schema *s, int least, struct csv_table *t,
                         struct error *e);

/* A value of environment.csv, or NULL. */
const char *results_environment(const struct results_folder *r, const char *key);
/* The GPUs the folder's timings ran on, into out: a run's gpu_uuid, a program's gpu_uuids, or each part's of a
 * program of several ("rank-0 GPU-..., rank-1 GPU-...", from its part_<name>_gpu_uuids), in the file's order; ""
 * where none is recorded. */
void results_gpu_uuids(const struct results_folder *r, char *out, size_t size);
/* A number of environment.csv; NAN when the key is absent, an error naming the line when it is not a number. */
int results_environment_number(const struct results_folder *r, const char *key, double *value, struct error *e);

/* A metric of variant at shape, summed over the kernels of its profiled call
 * (cuBLAS may launch several); NAN when the run did not collect it. Fails on a
 * value that is not a number, naming the file and line. */
int results_metric_sum(const struct results_folder *r, const char *variant, struct product_shape shape,
                       const char *metric, double *sum, struct error *e);

/* A metric of the kernel that heads the summary (the call's longest, metrics_kernel): for rates and
 * percentages, which do not add up over kernels. NAN when not collected. */
int results_main_kernel_metric(const struct results_folder *r, const char *variant, struct product_shape shape,
                               const char *metric, double *value, struct error *e);

/* Every metric row of the kernel that heads the summary (as above), collected and derived, in the file's order:
 * names (pointing into r) and values into the arrays (at most max), *n of them; none where the run collected none. */
int results_main_kernel_metrics(const struct results_folder *r, const char *variant, struct product_shape shape,
                                const char *names[], double values[], int max, int *n, struct error *e);

/* A variant's step on a ladder from variants.csv (0: not on it, or a run without the file or, for the tensor ladder,
 * without its column), and its description ("" without the file). */
int results_ladder_step(const struct results_folder *r, enum results_ladder ladder, const char *variant);
const char *results_description(const struct results_folder *r, const char *variant);

/* Whether the folder is a program's profile (memscope-profile: environment.csv's kind is "program"; job_name.h),
 * not a run of the suite (no kind key). */
int results_is_program(const struct results_folder *r);
/* Whether a summary row's timing counts: a suite product that matched its reference ("passed"), or a program's job,
 * which has no check to fail ("profiled" with hardware metrics; "timed", "not replayed", "kept back", "kept back in a
 * capture", "in a graph" without). */
int results_row_ok(const struct results_folder *r, int row);

/* The summary row of a variant at a shape, or -1. */
int results_summary_row(const struct results_folder *r, const char *variant, struct product_shape shape);
/* The first metrics.csv row of a variant at a shape, or -1; each of its job's rows leads to the next by metric_next
 * (-1 after the last), in the file's order. */
int results_first_metric_row(const struct results_folder *r, const char *variant, struct product_shape shape);

/* Who else used the GPU while a summary row was timed (other_gpu_work): "" when nobody was seen or the run
 * predates the column; "unknown: ..." when NVML could not tell. */
const char *results_other_gpu_work(const struct results_folder *r, int row);
/* Whether that names another process: NVML's "unknown" is no sighting. */
int results_disturbed(const struct results_folder *r, int row);

#endif
