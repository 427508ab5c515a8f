/*
 * The history's database behind one interface, SQLite or PostgreSQL, chosen by its target: a connection string
 * (postgresql://..., postgres://... or libpq's keyword=value form, "host=... dbname=...") is PostgreSQL,
 * anything else a SQLite file. Statements take their parameters as $1..$n, given as text (NULL: SQL NULL), and
 * give their rows back as text, so that one SQL text serves both engines.
 *
 * Errors carry the exit codes of README.md's history section: 2 for what is not a memscope history (not a
 * database, a constraint the input breaks), 4 for a database that cannot be reached, opened or written (no
 * server, a refused login, a read-only file, a lock held past the wait), 5 for anything else the engine says,
 * and 3 for a PostgreSQL target where libpq is not installed (it is loaded on the first connection, not linked).
 * A connection string may hold a password, so no message repeats it.
 */
#ifndef MEMSCOPE_HISTORY_STORE_H
#define MEMSCOPE_HISTORY_STORE_H

#include "../common/error.h"

struct store;

/* The most columns a query of the history returns (a result row has 23). */
#define STORE_MAX_COLUMNS 64

/* Rows as text: cell[row * columns + column], NULL for SQL NULL. */
struct store_rows {
    int rows, columns;
    char **cell;
};

/* What each engine provides (store_sqlite.c, store_postgres.c); store.c picks one by the target. */
struct store_engine {
    /* The column type of a key that numbers new rows itself. */
    const char *serial_key;
    /* $1: a table's name; one row, one column: whether it exists (0 or 1). Then: how many tables there are. */
    const char *table_exists_sql, *table_count_sql;
    /* Opens the connection; create: a SQLite file that is not there is made. A SQLite target ending in .sql is a
     * dump (schema.c loads it): an empty database in memory, named by the dump's path. */
    int (*open)(const char *target, int create, void **handle, struct error *e);
    void (*close)(void *handle);
    /* One statement with parameters; rows NULL when its rows are not wanted. */
    int (*run)(void *handle, const char *sql, int n_params, const char *const *params, struct store_rows *rows,
               struct error *e);
    /* Several statements, no parameters (a migration, a dump). */
    int (*script)(void *handle, const char *sql, struct error *e);
    /* Starts a write transaction that waits for every other writer's, in any process, to end. */
    int (*begin_writing)(void *handle, struct error *e);
    /* How the database is named in messages: a SQLite file's path; never a connection string. */
    void (*describe)(void *handle, char *text, int size);
};

extern const struct store_engine store_sqlite, store_postgres;

/* Whether the target names a PostgreSQL database rather than a SQLite file; whether it is a dump (a SQLite
 * target ending in .sql). */
int store_target_is_postgres(const char *target);
int store_target_is_dump(const char *target);

/* Loads libpq, once per process: 3 when libpq.so.5 cannot be loaded, naming the package to install. */
int store_postgres_load(struct error *e);

int store_open(const char *target, int create, struct store **s, struct error *e);
void store_close(struct store *s);
const struct store_engine *store_engine_of(const struct store *s);
/* The database as messages name it. */
const char *store_name(const struct store *s);

int store_run(struct store *s, const char *sql, int n_params, const char *const *params, struct store_rows *rows,
              struct error *e);
int store_script(struct store *s, const char *sql, struct error *e);
int store_begin_writing(struct store *s, struct error *e);
int store_commit(struct store *s, struct error *e);
/* Ends a transaction that failed: what it wrote is undone. */
void store_rollback(struct store *s);

/* A query's single value: rows of one column, the first row's cell, or NULL when there is none. */
int store_value(struct store *s, const char *sql, int n_params, const char *const *params, char *value, int size,
                int *found, struct error *e);
int store_table_exists(struct store *s, const char *table, int *exists, struct error *e);

const char *store_cell(const struct store_rows *r, int row, int column);
/* A cell as a number: NAN for SQL NULL. */
double store_real(const struct store_rows *r, int row, int column);
void store_rows_free(struct store_rows *r);
/* Appends a row of columns cells (strings copied, NULL kept) to rows; engines build their results with it. */
int store_rows_append(struct store_rows *r, int columns, const char *const *cells, struct error *e);

#endif
