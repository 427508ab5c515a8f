/*
 * The program's own NVTX ranges, from NVTX itself: with NVTX_INJECTION64_PATH
 * naming this library, the program's first NVTX call loads it and calls
 * InitializeInjectionNvtx2, which puts our functions in NVTX's tables for
 * nvtxRangePushA/PushEx/Pop and nvtxDomainRangePushEx/Pop (and the domains'
 * creation, so that each domain keeps its own stack). Every range is kept with
 * its thread (the system's id, as CUPTI names a call's thread) and its ends on
 * CUPTI's clock; each thread's stacks are its own (thread-local), the kept
 * ranges are shared. Needs no GPU and no CUDA.
 */
#ifndef MEMSCOPE_NVTX_HOOK_H
#define MEMSCOPE_NVTX_HOOK_H

#include <stddef.h>

#include "launches.h"

/* The calling thread's open ranges now, outer to inner across its domains, joined as a launch's path is at exit
 * ("outer/inner"; "" when none), cut to len. */
void nvtx_hook_current_path(char *path, size_t len);
/* Keeps no more ranges and hands back those kept, in push order (still open: end_ns 0); lost counts those not
 * kept (memory, nesting deeper than the stacks hold, more domains than there are stacks). */
const struct kept_range *nvtx_hook_stop(size_t *count, size_t *lost);
void nvtx_hook_free(void);

#endif
