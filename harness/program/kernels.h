/*
 * A program's profile read by kernel, the unit a performance engineer reads it by (Nsight Systems' cuda_gpu_kern_sum,
 * PyTorch's key_averages): its jobs (one per launch, results/job_name.h) grouped by their demangled kernel over every
 * process and run, each group with its launches' durations (every one a timing sample), their total, its share of all
 * kernels' time, their mean, median, least, most and spread, and the job whose hardware metrics stand for it. The
 * report, memscope-compare and memscope-profile's kernels.csv all read a profile through this one model, built from
 * summary.csv and samples.csv, so that profiles written before it existed read the same way. The launches an
 * autotuner made to time its candidates (autotuning.h) are counted apart: they are a cold compile cache's cost, not
 * the program's work, and a kernel's samples, share and statistics are of the program's own launches.
 */
#ifndef MEMSCOPE_PROGRAM_KERNELS_H
#define MEMSCOPE_PROGRAM_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "../csv/name_index.h"
#include "../results/folder_reader.h"

/* What makes two launches one row: the kernel; the kernel within the innermost NVTX range open at its launch (Nsight
 * Systems' :nvtx-name; a range is per thread, so kernels launched from another thread, autograd's backward, are in
 * none); or the launch itself (its job, as profiles were read before issue 48). */
enum kernel_grouping { GROUP_BY_KERNEL, GROUP_BY_NVTX, GROUP_BY_LAUNCH };

/* "kernel", "nvtx" or "launch"; an error naming the choices for any other. */
int kernel_grouping_parse(const char *text, enum kernel_grouping *g, struct error *e);

struct program_kernel {
    char *key;              /* what groups it: the kernel, "RANGE/kernel" by NVTX range, the job by launch */
    const char *kernel;     /* its demangled name (summary.csv's metrics_kernel; the job's name where that is empty) */
    char *nvtx_range;       /* by NVTX range, the innermost one ("" none); "" otherwise */
    double *samples_ms;     /* every timed launch's duration, over every process and run, the autotuner's apart */
    int *sample_rows;       /* each sample's job: its summary.csv row (samples.csv's order) */
    size_t launches;        /* how many: samples_ms's length (0 for a kernel only an autotuner launched) */
    size_t autotuning_launches; /* the launches an autotuner made of it to time it, and their total time */
    double autotuning_ms;
    double total_ms, share_pct, mean_ms, median_ms, min_ms, max_ms, stdev_ms;
    int processes;          /* the parts (results/job_name.h) that launched it; 1 for a profile of one process */
    int jobs;               /* its jobs in summary.csv */
    int first_row;          /* the summary row of its first job */
    int profiled_row;       /* the summary row of its first job with hardware metrics or stall samples (the program's
                               where it has one, else the autotuner's; with metrics where one has them), or -1 */
    bool profiled_in_autotuning; /* that job is an autotuner's run of a candidate, not a launch of the program's */
    int profiled_jobs;      /* how many of its jobs have them */
    bool not_replayed;      /* a collective selected and timed only (summary.csv's status "not replayed") */
    bool kept_back;         /* a job of it selected and timed only for when it ran: */
    bool kept_in_capture;   /* during a graph's capture ("kept back in a capture"), else beside a running collective
                               ("kept back") */
    int graph_jobs;         /* its jobs a CUDA graph launched ("in a graph"): never selected */
    bool collective;        /* waits in itself for other ranks: NCCL's by name, or one not replayed */
    size_t found_as;        /* its place in the order the profile first has the kernels */
};

struct program_kernels {
    struct program_kernel *at; /* the busiest first (total_ms), ties in the order the profile first has them */
    size_t n;
    double total_ms; /* all kernels', the program's own launches */
    size_t autotuning_launches; /* every autotuner's launch, and their total time */
    double autotuning_ms;
    size_t with_launches; /* the kernels with a launch of the program's own: the first of at */
    struct name_index by_key;
    int *kernel_of_row; /* per summary row: its kernel, an index in at */
    bool *autotuning_row; /* per summary row: the job is an autotuner's launch */
    int *program_ordinal; /* per summary row: its ordinal among the program's own launches of its kernel at its part
                             and NVTX path (the job's own, counting the autotuner's, where none came before); -1 for
                             an autotuner's launch. NULL where the profile has no autotuner's launch. */
    enum kernel_grouping grouping;
};

/* The kernels of r, a program's profile (results_is_program). On failure nothing is left to free. */
int program_kernels_build(const struct results_folder *r, enum kernel_grouping g, struct program_kernels *k,
                          struct error *e);
void program_kernels_free(struct program_kernels *k);
/* The kernel of that key, or NULL. */
const struct program_kernel *program_kernels_find(const struct program_kernels *k, const char *key);

/* The name of the job at row as the program's own launches number it: its job's name, the ordinal counted among the
 * program's launches alone (program_ordinal), into out where that differs. Two profiles that launched alike have the
 * same names in the same order, the autotuner's launches apart. */
const char *program_kernels_launch_name(const struct program_kernels *k, const struct results_folder *r, int row,
                                        char *out, size_t size);

/* The status summary.csv gives the kernel's profiled job, or its first job's: profiled, timed, not replayed, kept
 * back, kept back in a capture, in a graph. */
const char *program_kernel_status(const struct results_folder *r, const struct program_kernel *k);

#endif
