#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../results/schema.h"
#include "environment_entries.h"

void env_add(struct environment *env, const char *key, const char *fmt, ...)
{
    if (env->count == ENV_MAX_ENTRIES)
        return;
    snprintf(env->key[env->count], sizeof env->key[0], "%s", key);
    va_list args;
    va_start(args, fmt);
    vsnprintf(env->value[env->count], sizeof env->value[0], fmt, args);
    va_end(args);
    env->count++;
}

const char *env_value(const struct environment *env, const char *key)
{
    for (int i = 0; i < env->count; ++i)
        if (strcmp(env->key[i], key) == 0)
            return env->value[i];
    return NULL;
}

int env_write(const struct environment *env, const char *dir, struct error *e)
{
    struct csv c;
    if (schema_create(&c, dir, &environment_csv, e))
        return e->code;
    for (int i = 0; i < env->count; ++i) {
        csv_text(&c, env->key[i]);
        csv_text(&c, env->value[i]);
        csv_end_row(&c);
    }
    return csv_close(&c, e);
}
