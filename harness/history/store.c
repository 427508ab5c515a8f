#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/paths.h"
#include "store.h"

struct store {
    const struct store_engine *engine;
    void *handle;
    char name[PATH_LEN + 64];
};

/* libpq's two forms: a URI, or keyword=value pairs ("host=/run/pg dbname=memscope"), which start with a
 * lower-case word and '=', as no history file's name does. */
int store_target_is_postgres(const char *target)
{
    if (!strncmp(target, "postgresql://", 13) || !strncmp(target, "postgres://", 11))
        return 1;
    size_t word = 0;
    while (islower((unsigned char)target[word]) || target[word] == '_')
        ++word;
    return word > 0 && target[word + strspn(target + word, " ")] == '=';
}

int store_target_is_dump(const char *target)
{
    size_t n = strlen(target);
    return !store_target_is_postgres(target) && n >= 4 && !strcmp(target + n - 4, ".sql");
}

int store_open(const char *target, int create, struct store **s, struct error *e)
{
    *s = calloc(1, sizeof **s);
    if (!*s)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    (*s)->engine = store_target_is_postgres(target) ? &store_postgres : &store_sqlite;
    if ((*s)->engine->open(target, create, &(*s)->handle, e)) {
        free(*s);
        *s = NULL;
        return e->code;
    }
    (*s)->engine->describe((*s)->handle, (*s)->name, (int)sizeof(*s)->name);
    return 0;
}

void store_close(struct store *s)
{
    if (!s)
        return;
    s->engine->close(s->handle);
    free(s);
}

const struct store_engine *store_engine_of(const struct store *s)
{
    return s->engine;
}

const char *store_name(const struct store *s)
{
    return s->name;
}

int store_run(struct store *s, const char *sql, int n_params, const char *const *params, struct store_rows *rows,
              struct error *e)
{
    if (rows)
        *rows = (struct store_rows){0};
    return s->engine->run(s->handle, sql, n_params, params, rows, e);
}

int store_script(struct store *s, const char *sql, struct error *e)
{
    return s->engine->script(s->handle, sql, e);
}

int store_begin_writing(struct store *s, struct error *e)
{
    return s->engine->begin_writing(s->handle, e);
}

int store_commit(struct store *s, struct error *e)
{
    return s->engine->script(s->handle, "COMMIT", e);
}

void store_rollback(struct store *s)
{
    struct error ignored = {0}; /* the error that led here is the one to report */
    s->engine->script(s->handle, "ROLLBACK", &ignored);
}

int store_value(struct store *s, const char *sql, int n_params, const char *const *params, char *value, int size,
                int *found, struct error *e)
{
    struct store_rows rows;
    if (store_run(s, sql, n_params, params, &rows, e))
        return e->code;
    *found = rows.rows > 0 && store_cell(&rows, 0, 0);
    snprintf(value, (size_t)size, "%s", *found ? store_cell(&rows, 0, 0) : "");
    store_rows_free(&rows);
    return 0;
}

int store_table_exists(struct store *s, const char *table, int *exists, struct error *e)
{
    char value[32];
    int found;
    if (store_value(s, s->engine->table_exists_sql, 1, &table, value, (int)sizeof value, &found, e))
        return e->code;
    *exists = found && atoi(value) > 0;
    return 0;
}

const char *store_cell(const struct store_rows *r, int row, int column)
{
    return r->cell[row * r->columns + column];
}

double store_real(const struct store_rows *r, int row, int column)
{
    const char *text = store_cell(r, row, column);
    return text ? strtod(text, NULL) : NAN;
}

void store_rows_free(struct store_rows *r)
{
    for (int i = 0; i < r->rows * r->columns; ++i)
        free(r->cell[i]);
    free(r->cell);
    *r = (struct store_rows){0};
}

int store_rows_append(struct store_rows *r, int columns, const char *const *cells, struct error *e)
{
    if (grow_for_one_more((void **)&r->cell, (size_t)r->rows, (size_t)columns * sizeof *r->cell))
        return error_set(e, EXIT_RUNTIME, "out of memory");
    r->columns = columns;
    char **row = r->cell + (size_t)r->rows * (size_t)columns;
    for (int c = 0; c < columns; ++c)
        row[c] = NULL;
    ++r->rows; /* counted before the copies, so that store_rows_free frees what was copied when one fails */
    for (int c = 0; c < columns; ++c)
        if (cells[c] && !(row[c] = strdup(cells[c])))
            return error_set(e, EXIT_RUNTIME, "out of memory");
    return 0;
}
