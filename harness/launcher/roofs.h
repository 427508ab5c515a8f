/*
 * A profile's roofs: the ceilings of the GPU the program ran on, measured by memscope's own kernels. memscope-profile
 * links no CUDA, so it asks `memscope --measure-ceilings` (beside its own binary) for them once the program's first
 * run is over (the GPU idle again), which reuses the figures it cached for this GPU, driver and build or measures
 * and caches them (harness/ceilings/cache.h), and copies its ceiling_* entries into the profile's environment.csv,
 * with the SM's resources the findings' occupancy and wave rules read (the report applies those rules again to what
 * the profile stored: without them it could not judge them).
 * A profile without them is still a profile: where memscope is missing, finds no GPU or fails, or measured another
 * GPU than the program's (by name), nothing is copied and stderr says why.
 */
#ifndef MEMSCOPE_LAUNCHER_ROOFS_H
#define MEMSCOPE_LAUNCHER_ROOFS_H

#include "../common/error.h"
#include "../results/environment_csv.h"

/* The entries of ceilings (memscope --measure-ceilings' environment) that hold ceilings appended to profile (the
 * profile's environment), and the SM's resources beside them, where both name the same GPU (gpu_name); how many
 * ceilings, or 0 with why filled. */
int roofs_merge(const struct environment *ceilings, struct environment *profile, char *why, size_t len);

/* Runs memscope --measure-ceilings (waiting up to wait_gpu_s for the GPU's turn), keeps what it wrote in ceilings
 * (left empty where it gave none) and merges it into the environment.csv of each part of folder (the folder's own
 * for a program of one process; the merged one takes the first part's). Only a profile that cannot be rewritten is
 * an error; the rest is said on stderr. */
int roofs_add(const char *folder, long wait_gpu_s, struct environment *ceilings, struct error *e);

#endif
