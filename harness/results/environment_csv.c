#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "environment_csv.h"
#include "schema.h"

void env_add(struct environment *env, const char *key, const char *fmt, ...)
{
    if (env->count == ENV_MAX_ENTRIES)
        return;
    struct environment_entry *entry = &env->entry[env->count++];
    snprintf(entry->key, sizeof entry->key, "%s", key);
    va_list args;
    va_start(args, fmt);
    vsnprintf(entry->value, sizeof entry->value, fmt, args);
    va_end(args);
}

const char *env_value(const struct environment *env, const char *key)
{
    for (int i = 0; i < env->count; ++i)
        if (strcmp(env->entry[i].key, key) == 0)
            return env->entry[i].value;
    return NULL;
}

int environment_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &environment_csv, e);
}

void environment_csv_row(struct csv *c, const char *key, const char *value)
{
    csv_text(c, key);
    csv_text(c, value);
    csv_end_row(c);
}

int env_write(const struct environment *env, const char *dir, struct error *e)
{
    struct csv c;
    if (environment_csv_create(&c, dir, e))
        return e->code;
    for (int i = 0; i < env->count; ++i)
        environment_csv_row(&c, env->entry[i].key, env->entry[i].value);
    return csv_close(&c, e);
}
