/*
 * The results folder is filled under "<dir>.partial" and renamed to "<dir>"
 * only when every file in it is complete: an interrupted or failed run leaves a
 * folder whose name says it is incomplete, never one that looks finished.
 */
#ifndef MEMSCOPE_RESULTS_DIR_H
#define MEMSCOPE_RESULTS_DIR_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/paths.h"
#include "../common/error.h"

#define DEFAULT_RESULTS_ROOT "memscope-results"

struct results_dir {
    char final_path[PATH_LEN];
    char partial_path[PATH_IN_FOLDER_LEN];
    bool in_default_root; /* DEFAULT_RESULTS_ROOT is created on demand */
};

/* Chooses and validates the paths without creating anything (NULL: a fresh timestamped folder). */
int results_dir_plan(struct results_dir *r, const char *requested, struct error *e);
int results_dir_create(const struct results_dir *r, struct error *e);
int results_dir_commit(const struct results_dir *r, struct error *e);

#endif
