/*
 * The source group's run of a program (PROFILE_SOURCE_RUN): each part's lines.csv and instructions.csv (the
 * patched launches' counts, inject/patching.h), keyed by the first run's jobs (with the part's label where the
 * profile has several; a worker's, merge.h), into the folder's lines.csv and instructions.csv. The part's capture
 * stays in its folder, where memscope-decode reads it. Host-only.
 */
#ifndef MEMSCOPE_LAUNCHER_SOURCE_RUN_H
#define MEMSCOPE_LAUNCHER_SOURCE_RUN_H

#include <stddef.h>

#include "../common/error.h"
#include "merge.h"

/* The source run's folder inside the profile's. */
#define PROFILE_SOURCE_RUN "source-counting"

/* What the merge saw beside the rows it took. */
struct source_run_outcome {
    size_t unmatched;       /* rows of launches the first run did not make (left out) */
    size_t failed;          /* selected launches the parts could not count (their environment.csv: patching_failures) */
    char first_failure[512]; /* the first part's first_patching_failure where failed */
};

/* pairing: the first run's parts and jobs (a worker's part is the first run's it pairs with). */
int source_run_merge(const char *folder, struct part_pairing *pairing, struct source_run_outcome *out,
                     struct error *e);

#endif
