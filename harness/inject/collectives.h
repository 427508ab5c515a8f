/*
 * The launches never replayed: a communication kernel waits inside itself for its peers on other GPUs, so a
 * replay of one rank's side (CUPTI's kernel replay runs the kernel once per pass) while its peers do not replay
 * theirs hangs the job or mixes the passes' data into theirs. A selected launch of such a kernel is recorded for
 * timing only (its activity record, as CUPTI measured it) and marked so with the reason (launches.csv:
 * not_replayed). Recognised by its demangled name: NCCL's kernels all begin "ncclKernel" (NCCL up to 2.18) or
 * "ncclDevKernel" (2.19 on); any other kernel the user names with memscope-profile --no-replay REGEX.
 */
#ifndef MEMSCOPE_INJECT_COLLECTIVES_H
#define MEMSCOPE_INJECT_COLLECTIVES_H

#include <regex.h>

#include "../results/launches_csv.h" /* NOT_REPLAYED_*: launches.csv's not_replayed values */

/* NULL when kernel (demangled) may be replayed; else the reason. user: --no-replay's expression, or NULL. */
const char *collective_reason(const char *kernel, const regex_t *user);

#endif
