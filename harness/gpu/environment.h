/* What a run needs recorded to be compared with another: GPU, clocks, software, source, host, command. */
#ifndef MEMSCOPE_ENVIRONMENT_H
#define MEMSCOPE_ENVIRONMENT_H

#include "../common/error.h"
#include "../results/environment_csv.h"
#include "gpu.h"

void env_collect_host(struct environment *env, int argc, char **argv);
int env_collect_gpu(struct environment *env, const struct gpu *g, struct error *e);
/* Clocks read through NVML when the library is present; "unavailable" otherwise. */
void env_collect_clocks(struct environment *env, const struct gpu *g, const char *when);

#endif
