/* memscope --measure-ceilings: the GPU's ceilings alone, reused from the cache (harness/ceilings/cache.h) where it
 * holds them for this GPU, driver and build, else measured and cached; written into the results folder's
 * environment.csv, which memscope-profile copies into a program's profile. */
#ifndef MEMSCOPE_RUN_CEILINGS_ONLY_H
#define MEMSCOPE_RUN_CEILINGS_ONLY_H

#include "../common/error.h"
#include "../results/environment_csv.h"
#include "../results/partial_folder.h"
#include "cli.h"

/* env holds the host's entries already; dir is planned, not yet created. */
int run_ceilings_only(const struct options *o, const struct results_dir *dir, struct environment *env,
                      struct error *e);

#endif
