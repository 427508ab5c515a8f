/*
 * One process's part of a program's profile, written at its exit from what
 * was recorded: launches.csv, metrics.csv (the launches profiled) or
 * stalls.csv (the launches sampled) or the source run's capture, lines.csv and
 * instructions.csv (the launches patched),
 * environment.csv, trace.json (with timeline.csv), and last the completion
 * mark (protocol.h).
 */
#ifndef MEMSCOPE_INJECT_PART_H
#define MEMSCOPE_INJECT_PART_H

#include <stddef.h>
#include <stdint.h>

#include "../../cupti/activity.h"
#include "config.h"
#include "launches.h"
#include "patching.h"
#include "replay.h"
#include "sampling.h"

struct part_records {
    const struct prof_gpu_op *ops;
    size_t n_ops;
    const struct prof_api_call *calls;
    size_t n_calls;
    const struct kept_range *ranges; /* those still open end at exit_ns */
    size_t n_ranges, ranges_lost;
    uint64_t dropped, exit_ns;
    int64_t clock_offset_ns; /* the host's real-time clock less CUPTI's, read together at exit: a launch's start_ns
                                plus it is on a clock every process of the host shares */
    const struct replayed_launch *replayed; /* the launches profiled, whose records are made from their calls */
    size_t n_replayed;
    const struct kept_back *kept; /* selected launches never replayed (collectives) */
    size_t n_kept;
    double replay_wait_ms, collective_launch_wait_ms; /* what no replay beside a collective cost (gpu/peers.h) */
    const struct sampled_launch *sampled; /* the stall sampling's run: the launches sampled */
    size_t n_sampled;
    const struct stall_reasons *reasons; /* what their samples count */
    const struct patched_launch *patched; /* the source run: the launches patched */
    size_t n_patched;
    const struct source_capture *texts; /* the text of every line they name */
};

int part_write(const struct inject_config *c, const struct part_records *r, struct error *e);

#endif
