/* What a run needs recorded to be compared with another: GPU, clocks, software, source, host, command. */
#ifndef MEMSCOPE_ENVIRONMENT_H
#define MEMSCOPE_ENVIRONMENT_H

#include "error.h"
#include "gpu.h"

#define ENV_MAX_ENTRIES 64

struct environment {
    int count;
    char key[ENV_MAX_ENTRIES][48];
    char value[ENV_MAX_ENTRIES][512];
};

void env_add(struct environment *env, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void env_collect_host(struct environment *env, int argc, char **argv);
int env_collect_gpu(struct environment *env, const struct gpu *g, struct error *e);
/* Clocks read through NVML when the library is present; "unavailable" otherwise. */
void env_collect_clocks(struct environment *env, const struct gpu *g, const char *when);
int env_write(const struct environment *env, const char *dir, struct error *e);

#endif
