/*
 * Collecting the source group (needs the GPU): each profiled call runs once
 * more with CUPTI's SASS patching on, after its metric passes, and every
 * instruction it executed is placed at its function, PC, opcode, file and line
 * (the kernels are built with -lineinfo). The patched run is slower than the
 * kernel and is never timed as the kernel.
 */
#ifndef MEMSCOPE_SOURCE_COLLECT_H
#define MEMSCOPE_SOURCE_COLLECT_H

#include <stdbool.h>

#include "../../cupti/sass_metrics.h"
#include "../common/error.h"
#include "../gpu/gpu.h"
#include "../profile/collect.h"
#include "../results/source_capture.h"
#include "placement.h"

struct source_cost {
    double gpu_ms;  /* the patched run, by CUDA events */
    double wall_ms; /* gpu_ms plus patching, flushing the records and placing them */
};

struct source_collector {
    struct prof_sass_session sass;
    char chip[32];
    double setup_ms;
    struct source_placer placer;
};

/* The process's CUPTI subscriber must be started, before the kernels' modules load. */
int source_open(struct source_collector *c, struct gpu *g, struct error *e);
/* Every module loaded so far whose instructions can be placed (they have lines) starts its disassembly, side by
 * side: each costs the disassembler's start-up (about half a second), paid once for them all and, when started
 * before the width's metric passes, while those run. source_collect starts those loaded since. */
void source_start_listings(struct source_collector *c);
/* Runs each call once under SASS patching, appending it to capture (and setting its chip); cost[i] is call i's. */
int source_collect(struct source_collector *c, struct gpu *g, const struct profiled_call *calls, int n,
                   struct source_capture *capture, struct source_cost *cost, struct error *e);
int source_close(struct source_collector *c, struct error *e);

#endif
