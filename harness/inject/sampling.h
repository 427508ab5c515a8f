/*
 * Warp stall reasons for the launches the selection takes (the stalls group),
 * by CUPTI's PC sampling, in a run of the program of its own: PC sampling
 * cannot share a process with the range profiler (harness/run/profile_size.h
 * says what failed), so memscope-profile runs the program once more for it.
 *
 * On entry to a selected launch sampling starts on its context, one sample per
 * 2^p cycles per SM, p chosen from the launch's duration in the first run (the
 * suite's rule, stalls/sampling_period.h); on return the context is
 * synchronized, sampling stops and each sampled instruction is placed on its
 * source line (source/locate.h: "" and 0 for a kernel built without line
 * information). The launch's own activity record stays; its samples are
 * matched to it by the driver call's correlation. A launch whose samples were
 * dropped, or none recorded, says why and has none.
 */
#ifndef MEMSCOPE_INJECT_SAMPLING_H
#define MEMSCOPE_INJECT_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

#include "../stalls/stall_lines.h"

#define SAMPLING_FAILURE_LEN 256

struct sampled_launch {
    uint32_t correlation;  /* the driver call's, as its activity record carries it */
    struct stall_call call; /* its lines; variant, precision and width are the writer's to set */
    char failure[SAMPLING_FAILURE_LEN]; /* why it has no samples, or "" */
};

/* Starts sampling on context (PC sampling is enabled there at the first call; every launch sampled must be on
 * that context) at one sample per 2^period_log2 cycles per SM. */
int sampling_begin(struct CUctx_st *context, unsigned period_log2, struct prof_error *e);
/* After the launch's kernel finished: stops sampling, places the samples and keeps them as the launch's, or its
 * failure (e's, or the samples'). e's failure before sampling_begin started sampling leaves nothing to stop. */
void sampling_end(uint32_t correlation, int started, struct prof_error *e);
/* Whether PC sampling is enabled: a launch that failed before it was cannot be followed by one that succeeds. */
int sampling_ready(void);
/* The launches sampled, in launch order, and the reasons their samples are counted under. */
const struct sampled_launch *sampling_results(size_t *count, const struct stall_reasons **reasons);
/* Disables PC sampling; the first failure in e. */
void sampling_stop(struct prof_error *e);
void sampling_free(void);

#endif
