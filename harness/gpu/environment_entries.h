/* The environment as key, value entries: filled by the probes, written as environment.csv. */
#ifndef MEMSCOPE_ENVIRONMENT_ENTRIES_H
#define MEMSCOPE_ENVIRONMENT_ENTRIES_H

#include "../common/error.h"

#define ENV_MAX_ENTRIES 64

struct environment {
    int count;
    char key[ENV_MAX_ENTRIES][48];
    char value[ENV_MAX_ENTRIES][512];
};

void env_add(struct environment *env, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The value recorded under key, or NULL. */
const char *env_value(const struct environment *env, const char *key);
int env_write(const struct environment *env, const char *dir, struct error *e);

#endif
