/*
 * The source group's run of a program (PROFILE_SOURCE_RUN): each part's lines.csv and instructions.csv (the
 * patched launches' counts, inject/patching.h), keyed by the first run's jobs (with the part's label where the
 * profile has several), into the folder's lines.csv and instructions.csv. The part's capture stays in its folder,
 * where memscope-decode reads it. Host-only.
 */
#ifndef MEMSCOPE_LAUNCHER_SOURCE_RUN_H
#define MEMSCOPE_LAUNCHER_SOURCE_RUN_H

#include <stddef.h>

#include "../common/error.h"
#include "../csv/name_index.h"

/* The source run's folder inside the profile's. */
#define PROFILE_SOURCE_RUN "source-counting"

/* jobs: the first run's, by key; *unmatched: rows of launches the first run did not make (left out). */
int source_run_merge(const char *folder, const struct name_index *jobs, size_t *unmatched, struct error *e);

#endif
