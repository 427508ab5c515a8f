/*
 * Collecting warp stall reasons (needs the GPU): each profiled call runs once
 * more, or as often as its width's sampling period needs (sampling_period.h),
 * with CUPTI's PC sampling started, after its width is timed and before
 * any metric pass, in a phase of its own ("stall sampling"), never while
 * timing, and each sampled instruction is placed on its source line.
 *
 * PC sampling is enabled once, when the run opens, and disabled once every
 * width is sampled, before the range profiler is enabled (see
 * run/profile_size.h for why). It samples only between begin and end. A
 * kernel built without line information (cuBLAS's) has its samples on file
 * "" and line 0. Samples the hardware dropped fail the call: shares from part
 * of them would read as the kernel's.
 */
#ifndef MEMSCOPE_STALLS_COLLECT_H
#define MEMSCOPE_STALLS_COLLECT_H

#include "../../cupti/pc_sampling.h"
#include "../common/error.h"
#include "../gpu/gpu.h"
#include "../profile/collect.h"
#include "../source/locate.h"
#include "stall_lines.h"

#define STALL_MAX_CALLS 64

struct stall_collector {
    struct prof_pcs_session pcs;
    struct line_locator locator;
    struct stall_reasons reasons; /* known after the first collection */
    int sms;
    double clock_mhz;
    unsigned period_in_use; /* the period a launch was last sampled at (0: none yet); a change costs about 0.35 s */
};

int stalls_open(struct stall_collector *c, const struct gpu *g, struct error *e);
/* Disables PC sampling; closing again does nothing. */
int stalls_close(struct stall_collector *c, struct error *e);
/* Samples each call, appending what it saw to out[i]; median_ms[i] is call i's median time, which sets its
 * sampling period and its launches (stall_schedule). */
int stalls_collect(struct stall_collector *c, struct gpu *g, const struct profiled_call *calls,
                   const double *median_ms, int n, struct stall_call *out, struct error *e);

#endif
