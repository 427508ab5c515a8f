/* The SQLite engine: a history in one file, no server. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/paths.h"
#include "store.h"

/* How long a writer waits for another's transaction to end: an ingest takes well under a second, so a minute
 * covers a fleet of runners that finish at once. */
#define BUSY_WAIT_S 60

struct sqlite_store {
    sqlite3 *db;
    char path[PATH_LEN];
};

static int failed(const struct sqlite_store *s, int rc, struct error *e)
{
    const char *why = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc);
    switch (rc & 0xff) {
    case SQLITE_NOTADB:
        return error_set(e, EXIT_USAGE, "%s: not a database (SQLite: %s)", s->path, why);
    case SQLITE_CORRUPT:
        return error_set(e, EXIT_USAGE, "%s: a damaged database (SQLite: %s)", s->path, why);
    case SQLITE_CONSTRAINT:
        return error_set(e, EXIT_USAGE, "%s: the input breaks a rule of the history (SQLite: %s)", s->path, why);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return error_set(e, EXIT_OUTPUT, "%s: locked by another process for more than %d s", s->path, BUSY_WAIT_S);
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_PERM:
        return error_set(e, EXIT_OUTPUT, "%s: cannot be opened or written (SQLite: %s)", s->path, why);
    }
    return error_set(e, EXIT_RUNTIME, "%s: %s", s->path, why);
}

static void sqlite_close(void *handle)
{
    struct sqlite_store *s = handle;
    sqlite3_close(s->db);
    free(s);
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int sqlite_open(const char *target, int create, void **handle, struct error *e)
{
    struct sqlite_store *s = calloc(1, sizeof *s);
    if (!s)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    snprintf(s->path, sizeof s->path, "%s", target);
    int dump = store_target_is_dump(target);
    if (is_directory(target)) {
        error_set(e, EXIT_USAGE, "%s: a directory, not a history database (name a file, such as %s/history.db)",
                  target, target);
    } else if (!create && !file_exists(target)) {
        error_set(e, EXIT_USAGE, "%s: no such history database", target);
    } else {
        int rc = sqlite3_open_v2(dump ? ":memory:" : target, &s->db,
                                 SQLITE_OPEN_READWRITE | (create || dump ? SQLITE_OPEN_CREATE : 0), NULL);
        if (rc != SQLITE_OK)
            failed(s, rc, e);
        else if (sqlite3_extended_result_codes(s->db, 1) != SQLITE_OK ||
                 sqlite3_busy_timeout(s->db, BUSY_WAIT_S * 1000) != SQLITE_OK)
            failed(s, sqlite3_errcode(s->db), e);
        else if ((rc = sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL)) != SQLITE_OK)
            failed(s, rc, e);
    }
    if (e->code) {
        sqlite_close(s);
        return e->code;
    }
    *handle = s;
    return 0;
}

static int bind_all(sqlite3_stmt *statement, int n_params, const char *const *params)
{
    int rc = SQLITE_OK;
    for (int i = 0; i < n_params && rc == SQLITE_OK; ++i) {
        char name[16];
        snprintf(name, sizeof name, "$%d", i + 1);
        int at = sqlite3_bind_parameter_index(statement, name);
        if (at)
            rc = params[i] ? sqlite3_bind_text(statement, at, params[i], -1, SQLITE_STATIC)
                           : sqlite3_bind_null(statement, at);
    }
    return rc;
}

static int append_row(sqlite3_stmt *statement, struct store_rows *rows, struct error *e)
{
    int columns = sqlite3_column_count(statement);
    const char *cells[STORE_MAX_COLUMNS];
    if (columns > STORE_MAX_COLUMNS)
        return error_set(e, EXIT_RUNTIME, "a query of more than %d columns", STORE_MAX_COLUMNS);
    for (int c = 0; c < columns; ++c)
        cells[c] = (const char *)sqlite3_column_text(statement, c);
    return store_rows_append(rows, columns, cells, e);
}

static int sqlite_run(void *handle, const char *sql, int n_params, const char *const *params, struct store_rows *rows,
                      struct error *e)
{
    struct sqlite_store *s = handle;
    sqlite3_stmt *statement;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &statement, NULL);
    if (rc != SQLITE_OK)
        return failed(s, rc, e);
    rc = bind_all(statement, n_params, params);
    while (rc == SQLITE_OK && (rc = sqlite3_step(statement)) == SQLITE_ROW)
        rc = rows && append_row(statement, rows, e) ? SQLITE_ABORT : SQLITE_OK;
    if (rc != SQLITE_DONE && !e->code)
        failed(s, rc, e);
    sqlite3_finalize(statement);
    if (e->code && rows)
        store_rows_free(rows);
    return e->code;
}

static int sqlite_script(void *handle, const char *sql, struct error *e)
{
    struct sqlite_store *s = handle;
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : failed(s, rc, e);
}

/* IMMEDIATE takes the write lock at once, waiting up to BUSY_WAIT_S for it, so that two writers never both read
 * and then both try to write. */
static int sqlite_begin_writing(void *handle, struct error *e)
{
    return sqlite_script(handle, "BEGIN IMMEDIATE", e);
}

static void sqlite_describe(void *handle, char *text, int size)
{
    snprintf(text, (size_t)size, "%s", ((struct sqlite_store *)handle)->path);
}

const struct store_engine store_sqlite = {
    .serial_key = "INTEGER PRIMARY KEY",
    .table_exists_sql = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1",
    .table_count_sql = "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
    .open = sqlite_open,
    .close = sqlite_close,
    .run = sqlite_run,
    .script = sqlite_script,
    .begin_writing = sqlite_begin_writing,
    .describe = sqlite_describe,
};
