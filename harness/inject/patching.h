/*
 * Per-instruction counts of the launches the selection takes (the source group), by CUPTI's SASS patching, in a
 * run of the program of its own: the patched kernels run slower, and their times and the range profiler's counters
 * would be the patched code's.
 *
 * Around each selected launch, as the suite's source group does around a profiled call: patching enabled lazily
 * on its entry (the launch's kernel patched as it starts), its instructions flushed and patching disabled after
 * it finished (the context synchronized). The SASS metrics are configured at the first selected launch, for its
 * device. What CUDA 13.0's CUPTI needs around it (replay.c does it; measured on an H200, program_increments.cu and
 * program_lines.cu): CUPTI's kernel activity paused, for with it recording the patched instructions counted
 * nothing; and a range profiler enabled on the context and configured before each launch, for without it only the
 * process's first patched launch recorded counts, a later one's kernel, the same or another, none. A launch on
 * another context, or whose patching failed, says why and has no counts.
 */
#ifndef MEMSCOPE_INJECT_PATCHING_H
#define MEMSCOPE_INJECT_PATCHING_H

#include <stddef.h>
#include <stdint.h>

#include "../../cupti/sass_metrics.h"
#include "../results/source_capture.h"

#define PATCHING_FAILURE_LEN 256

struct patched_launch {
    uint32_t correlation;   /* the driver call's, as its activity record carries it */
    struct source_call call; /* its kernel's instructions, placed (placement.h) as it ended, while its module's
                                cubin is kept; variant, precision, width and kernel are the writer's
                                to set */
    char failure[PATCHING_FAILURE_LEN]; /* why it has no counts, or "" */
};

/* On a selected launch's entry: the first configures the SASS metrics (source_capture.h's) for its device; each
 * enables patching. */
int patching_begin(struct CUctx_st *context, struct prof_error *e);
/* After the launch's kernel (function, mangled) finished: flushes, disables patching, and keeps the kernel's
 * counts as the launch's, placed on their lines, or its failure (e's included). */
void patching_end(uint32_t correlation, const char *function, struct prof_error *e);
/* The launches patched, in launch order, and the capture that holds the text of every line they name. */
const struct patched_launch *patching_results(size_t *count, const struct source_capture **texts);
/* Disables patching; the first failure in e. */
void patching_stop(struct prof_error *e);
void patching_free(void);

#endif
