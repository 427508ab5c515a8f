/*
 * One side of a comparison: a results folder, or a folder of results folders
 * (the rounds of an interleaved A/B run), whose samples are pooled.
 */
#ifndef MEMSCOPE_COMPARE_SIDE_H
#define MEMSCOPE_COMPARE_SIDE_H

#include "../common/paths.h"
#include "../results/folder_reader.h"

#define COMPARE_MAX_ROUNDS 32

struct compare_side {
    char path[PATH_LEN];
    struct results_folder round[COMPARE_MAX_ROUNDS];
    int rounds;
};

int compare_side_open(const char *path, struct compare_side *side, struct error *e);
void compare_side_close(struct compare_side *side);

/* Refuses (exit code 2) when a field that decides timings differs between any
 * two folders, naming the field and both values; with force, only warns on stderr. */
int compare_sides_match(const struct compare_side *base, const struct compare_side *head, int force, struct error *e);

/* Every sample of variant at width, over all rounds; *count is how many. Returns 0 or -1 (memory). */
int compare_side_samples(const struct compare_side *side, const char *variant, int width, double **samples,
                         int *count);

/* The first round that collected metrics, or NULL. */
const struct results_folder *compare_side_metrics(const struct compare_side *side);

#endif
