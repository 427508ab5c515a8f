#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../common/numbers.h"
#include "../common/paths.h"
#include "../csv/reader.h"
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

int env_copy_prefixed(const struct environment *from, const char *prefix, struct environment *to)
{
    int n = 0;
    for (int i = 0; i < from->count; ++i)
        if (strncmp(from->entry[i].key, prefix, strlen(prefix)) == 0) {
            env_add(to, from->entry[i].key, "%s", from->entry[i].value);
            ++n;
        }
    return n;
}

const char *env_value(const struct environment *env, const char *key)
{
    for (int i = 0; i < env->count; ++i)
        if (strcmp(env->entry[i].key, key) == 0)
            return env->entry[i].value;
    return NULL;
}

double env_number(const struct environment *env, const char *key)
{
    double value;
    return env && parse_real(env_value(env, key), -HUGE_VAL, HUGE_VAL, &value) == NUMBER_OK ? value : NAN;
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

int env_read(const char *dir, struct environment *env, struct error *e)
{
    char path[PATH_JOINED(PATH_LEN)];
    struct csv_table t;
    snprintf(path, sizeof path, "%s/%s", dir, environment_csv.file);
    *env = (struct environment){0};
    if (csv_table_read(path, &t, e))
        return e->code;
    if (!schema_header_matches(&t, &environment_csv))
        error_set(e, EXIT_USAGE, "%s: not an environment.csv (its header is not key,value)", path);
    else if (t.rows > ENV_MAX_ENTRIES)
        error_set(e, EXIT_USAGE, "%s: %d entries, more than the %d memscope writes at most", path, t.rows,
                  ENV_MAX_ENTRIES);
    for (int row = 0; row < t.rows && !e->code; ++row)
        env_add(env, csv_table_text(&t, row, ENVIRONMENT_KEY), "%s", csv_table_text(&t, row, ENVIRONMENT_VALUE));
    csv_table_free(&t);
    return e->code;
}
