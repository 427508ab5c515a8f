/*
 * Measuring the ceilings on the GPU a run uses: the kernels of
 * kernels/ceilings/ceilings.h, each timed with CUDA events (warm-up launches,
 * then the shortest of several timed ones), inside the NVTX phase "ceilings".
 * The figures go into the run's environment under rates.h's keys.
 */
#ifndef MEMSCOPE_CEILINGS_MEASURE_H
#define MEMSCOPE_CEILINGS_MEASURE_H

#include "../common/error.h"
#include "../results/environment_csv.h"
#include "../gpu/gpu.h"
#include "rates.h"

/* Why the tensor ceilings were not measured (no sm_90a in this build, or a GPU other than compute capability 9.0):
 * environment.csv's entry in their place. */
#define CEILING_TENSOR_NOT_MEASURED_KEY "ceiling_tensor_not_measured"

/* Measures every ceiling on g's stream and records it in env; a few milliseconds of GPU time. A ceiling this build
 * or GPU cannot measure (the tensor ones without wgmma) gets no entry: CEILING_TENSOR_NOT_MEASURED_KEY says why. */
int ceilings_measure(struct gpu *g, struct environment *env, struct error *e);

/* The ceilings recorded in env (NAN where missing) and the datasheet figures its GPU entries give. */
void ceilings_from_environment(const struct environment *env, struct ceiling_rates *measured,
                               struct ceiling_rates *datasheet);

#endif
