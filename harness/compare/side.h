/*
 * One side of a comparison: a results folder, or a folder of results folders
 * (the rounds of an interleaved A/B run), whose samples are pooled. A program's
 * profile is compared by kernel (program/kernels.h): each round's kernels, every
 * launch of a kernel a sample of it.
 */
#ifndef MEMSCOPE_COMPARE_SIDE_H
#define MEMSCOPE_COMPARE_SIDE_H

#include <stdbool.h>

#include "../common/paths.h"
#include "../program/kernels.h"
#include "../results/folder_reader.h"

#define COMPARE_MAX_ROUNDS 32

struct compare_side {
    char path[PATH_LEN];
    struct results_folder round[COMPARE_MAX_ROUNDS];
    struct program_kernels kernels[COMPARE_MAX_ROUNDS]; /* a program's profile: each round's kernels */
    int rounds;
    bool program;
};

/* grouping: how a program's launches make its kernels (a run of the suite ignores it). */
int compare_side_open(const char *path, enum kernel_grouping grouping, struct compare_side *side, struct error *e);
void compare_side_close(struct compare_side *side);

/* Refuses (exit code 2) when a field that decides timings differs between any
 * two folders, naming the field and both values; with force, only warns on stderr. */
int compare_sides_match(const struct compare_side *base, const struct compare_side *head, int force, struct error *e);

/* The samples of variant at shape in one round (a program's kernel, by its key, at 0 x 0 x 0: every launch of
 * it), appended to *samples (grown; *count counts them). Returns 0 or -1 (memory). */
int compare_side_round_samples(const struct compare_side *side, int round, const char *variant,
                               struct product_shape shape, double **samples, int *count);

/* Whether both sides launched a program's kernel (by its key) as the same jobs, two or more, in the same order over
 * their rounds in order: a program that makes the same launches each time, profiled the same way. Its samples
 * (compare_side_round_samples, round after round) then pair launch by launch. A kernel of one job (a launch alone,
 * --group-by launch) is its runs' samples, which no order pairs. */
bool compare_sides_launch_alike(const struct compare_side *base, const struct compare_side *head, const char *key);

/* The rounds that collected metrics, in order; returns how many. */
int compare_side_metric_rounds(const struct compare_side *side, int rounds[COMPARE_MAX_ROUNDS]);

/* What holds variant's metrics in round: the variant itself in a run of the suite; the job whose metrics stand for a
 * program's kernel (its first profiled launch), NULL where it has none. */
const char *compare_side_metrics_job(const struct compare_side *side, int round, const char *variant);
/* That launch as the two sides match it: the variant; a program's job named among the program's own launches
 * (program/kernels.h, program_kernels_launch_name: an autotuner's timing on one side does not shift it), into out
 * where that differs; NULL where it has none. */
const char *compare_side_metrics_launch(const struct compare_side *side, int round, const char *variant, char *out,
                                        size_t size);

#endif
