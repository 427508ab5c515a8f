/*
 * The range profiler's counts that the source group's per-instruction counters sum to exactly. The suite's run with
 * the source group (memscope's; not --validate, not memscope-profile) takes those its groups name from there instead
 * of patching every kernel for them once more in its metric passes:
 * the shared group's patched counts made the slowest lesson kernels' passes take about twice as long (tiled_32 and
 * tiled_32_fp64 at W = 4096 on an H200, docs/metrics.md). Their rows keep their Perfworks names and units: the
 * same count, summed over the kernel's instructions (checked against the range profiler's on a GPU,
 * tests/source/test_summed_counts_gpu.c).
 *
 * The shared bytes and the ldmatrix counts stay in the metric passes: CUPTI's bytes count each distinct address of
 * a warp's access once (a broadcast once, not per lane), which no per-instruction counter gives, and ldmatrix is
 * told only by an opcode the disassembler may not name.
 */
#ifndef MEMSCOPE_SUMMED_COUNTS_H
#define MEMSCOPE_SUMMED_COUNTS_H

#include <stdbool.h>

#include "../common/error.h"
#include "../results/source_capture.h"
#include "metric_set.h"
#include "profile.h"

/* X(catalog id, the SASS counter that marks an instruction counted, the SASS counter summed over those, unit) */
#define SUMMED_COUNTS(X)                                                                                               \
    X(SHARED_LD_WAVEFRONTS, SASS_SHARED_LD_INST, SASS_SHARED_WAVEFRONTS, "l1tex_wavefront")                            \
    X(SHARED_ST_WAVEFRONTS, SASS_SHARED_ST_INST, SASS_SHARED_WAVEFRONTS, "l1tex_wavefront")                            \
    X(SHARED_LD_INSTRUCTIONS, SASS_SHARED_LD_INST, SASS_SHARED_LD_INST, "instruction")                                 \
    X(SHARED_ST_INSTRUCTIONS, SASS_SHARED_ST_INST, SASS_SHARED_ST_INST, "instruction")

/* Takes the summed counts out of a set with the source group into set->summed, unless nothing else would be left
 * for the metric passes (the source group needs a pass before it: harness/run/main.c). Returns how many. */
int summed_counts_leave_out(struct metric_set *set);

/* Whether name is a count the source group sums (a capture's tags are checked so before anything is read). */
bool summed_counts_known(const char *name);

/* Adds to p each of the n counts named (those a set left out; a capture's "summed" tags) that it lacks, for each
 * kernel from its instructions in call, matched by demangled name: NAN for a kernel with none there, or whose name
 * another kernel of the call shares. A profile of no kernel is left as it is. A name that is not a summed count is
 * refused (EXIT_USAGE). call may be NULL only where n is 0. */
int summed_counts_add(struct profile *p, const struct source_call *call, const char *const *names, int n,
                      struct error *e);

#endif
