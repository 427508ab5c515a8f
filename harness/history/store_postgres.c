/* The PostgreSQL engine: one history that a fleet of runners writes to over the network. libpq is loaded on the
 * first connection, not linked: memscope-history runs where it is not installed (a GPU machine that records
 * into a SQLite file), and only a PostgreSQL target needs it. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

/* The few libpq declarations used, from libpq's documented ABI (libpq-fe.h, stable since libpq.so.5). */
typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;
typedef unsigned int Oid;
typedef int ConnStatusType, ExecStatusType, PGPing;
typedef void (*PQnoticeProcessor)(void *arg, const char *message);
enum { CONNECTION_OK = 0 };
enum { PGRES_COMMAND_OK = 1, PGRES_TUPLES_OK = 2, PGRES_FATAL_ERROR = 7 };
enum { PQPING_NO_RESPONSE = 2, PQPING_NO_ATTEMPT = 3 };
#define PG_DIAG_SQLSTATE 'C'

#define LIBPQ "libpq.so.5"
/* Each function: its return type, name and parameters. */
#define LIBPQ_FUNCTIONS(F)                                                                                         \
    F(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname))    \
    F(PGPing, PQpingParams, (const char *const *keywords, const char *const *values, int expand_dbname))           \
    F(ConnStatusType, PQstatus, (const PGconn *connection))                                                        \
    F(char *, PQerrorMessage, (const PGconn *connection))                                                          \
    F(char *, PQdb, (const PGconn *connection))                                                                    \
    F(char *, PQhost, (const PGconn *connection))                                                                  \
    F(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn * connection, PQnoticeProcessor processor, void *arg))      \
    F(void, PQfinish, (PGconn * connection))                                                                       \
    F(PGresult *, PQexec, (PGconn * connection, const char *sql))                                                  \
    F(PGresult *, PQexecParams,                                                                                    \
      (PGconn * connection, const char *sql, int n_params, const Oid *types, const char *const *values,            \
       const int *lengths, const int *formats, int result_format))                                                 \
    F(ExecStatusType, PQresultStatus, (const PGresult *result))                                                    \
    F(char *, PQresultErrorMessage, (const PGresult *result))                                                      \
    F(char *, PQresultErrorField, (const PGresult *result, int field))                                             \
    F(int, PQntuples, (const PGresult *result))                                                                    \
    F(int, PQnfields, (const PGresult *result))                                                                    \
    F(int, PQgetisnull, (const PGresult *result, int row, int column))                                             \
    F(char *, PQgetvalue, (const PGresult *result, int row, int column))                                           \
    F(void, PQclear, (PGresult * result))

#define DECLARE(type, name, parameters) type(*name) parameters;
static struct libpq {
    LIBPQ_FUNCTIONS(DECLARE)
} pq;

#define SYMBOL(type, name, parameters) {#name, offsetof(struct libpq, name)},
static const struct libpq_symbol {
    const char *name;
    size_t offset;
} libpq_symbols[] = {LIBPQ_FUNCTIONS(SYMBOL)};

int store_postgres_load(struct error *e)
{
    static void *library;
    if (library)
        return 0;
    void *loaded = dlopen(LIBPQ, RTLD_NOW | RTLD_LOCAL);
    if (!loaded)
        return error_set(e, EXIT_NO_GPU, "PostgreSQL needs libpq: apt-get install libpq5 (%s)", dlerror());
    for (size_t i = 0; i < sizeof libpq_symbols / sizeof *libpq_symbols; ++i) {
        void *function = dlsym(loaded, libpq_symbols[i].name);
        if (!function) {
            error_set(e, EXIT_NO_GPU, "PostgreSQL needs libpq: %s lacks %s: apt-get install libpq5", LIBPQ,
                      libpq_symbols[i].name);
            dlclose(loaded);
            return e->code;
        }
        /* POSIX's way from dlsym's object pointer to a function pointer: the same bytes. */
        memcpy((char *)&pq + libpq_symbols[i].offset, &function, sizeof function);
    }
    library = loaded;
    return 0;
}

/* Every write transaction takes this advisory lock first, so that writers follow one another, as SQLite's
 * do: no two ingests insert the same job or machine at once, and none can deadlock on the other. */
#define WRITERS_LOCK "1835363699" /* "mems" */

/* libpq's defaults, which the connection string (dbname, expanded: it comes last) overrides: a server that does
 * not answer is given up on after 10 s. */
static const char *const keywords[] = {"connect_timeout", "application_name", "dbname", NULL};

static int connection_failed(PGconn *connection, const char *const *values, struct error *e)
{
    /* libpq's message ends with a line break, and names the server but never the password. */
    char why[512];
    snprintf(why, sizeof why, "%s", pq.PQerrorMessage(connection));
    why[strcspn(why, "\n")] = '\0';
    switch (pq.PQpingParams(keywords, values, 1)) {
    case PQPING_NO_ATTEMPT:
        return error_set(e, EXIT_USAGE, "not a valid PostgreSQL connection string: %s", why);
    case PQPING_NO_RESPONSE:
        return error_set(e, EXIT_OUTPUT, "cannot reach the PostgreSQL server: %s", why);
    default: /* it answered: the login was refused (user, password, database or pg_hba.conf) */
        return error_set(e, EXIT_OUTPUT, "the PostgreSQL server refused the login: %s", why);
    }
}

/* The SQLSTATE classes of a statement that failed: a connection lost, a login or a privilege refused, a disk
 * full or a server shut down are 4, like a SQLite file that cannot be written; the input breaking a
 * constraint is 2. */
static int statement_failed(PGconn *connection, const PGresult *result, struct error *e)
{
    const char *state = result ? pq.PQresultErrorField(result, PG_DIAG_SQLSTATE) : NULL;
    char why[512];
    snprintf(why, sizeof why, "%s", result ? pq.PQresultErrorMessage(result) : pq.PQerrorMessage(connection));
    why[strcspn(why, "\n")] = '\0';
    const char *database = pq.PQdb(connection);
    if (!state || !strncmp(state, "08", 2) || !strncmp(state, "28", 2) || !strncmp(state, "53", 2) ||
        !strncmp(state, "57", 2) || !strcmp(state, "42501") || !strcmp(state, "25006"))
        return error_set(e, EXIT_OUTPUT, "PostgreSQL database %s: %s", database, why);
    if (!strncmp(state, "23", 2))
        return error_set(e, EXIT_USAGE, "PostgreSQL database %s: the input breaks a rule of the history: %s", database,
                         why);
    return error_set(e, EXIT_RUNTIME, "PostgreSQL database %s: %s", database, why);
}

/* NOTICEs ("relation exists, skipping") are the server talking to itself. */
static void quiet(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

static int postgres_open(const char *target, int create, void **handle, struct error *e)
{
    (void)create; /* a PostgreSQL database is made by its administrator, never here */
    if (store_postgres_load(e))
        return e->code;
    const char *values[] = {"10", "memscope-history", target, NULL};
    PGconn *connection = pq.PQconnectdbParams(keywords, values, 1);
    if (!connection)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    if (pq.PQstatus(connection) != CONNECTION_OK) {
        connection_failed(connection, values, e);
        pq.PQfinish(connection);
        return e->code;
    }
    pq.PQsetNoticeProcessor(connection, quiet, NULL);
    *handle = connection;
    return 0;
}

static void postgres_close(void *handle)
{
    pq.PQfinish(handle);
}

static int collect(const PGresult *result, struct store_rows *rows, struct error *e)
{
    int columns = pq.PQnfields(result);
    const char *cells[STORE_MAX_COLUMNS];
    if (columns > STORE_MAX_COLUMNS)
        return error_set(e, EXIT_RUNTIME, "a query of more than %d columns", STORE_MAX_COLUMNS);
    for (int row = 0; row < pq.PQntuples(result); ++row) {
        for (int c = 0; c < columns; ++c)
            cells[c] = pq.PQgetisnull(result, row, c) ? NULL : pq.PQgetvalue(result, row, c);
        if (store_rows_append(rows, columns, cells, e))
            return e->code;
    }
    return 0;
}

static int finish(PGconn *connection, PGresult *result, struct store_rows *rows, struct error *e)
{
    ExecStatusType status = result ? pq.PQresultStatus(result) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
        statement_failed(connection, result, e);
    else if (rows && collect(result, rows, e))
        store_rows_free(rows);
    pq.PQclear(result);
    return e->code;
}

static int postgres_run(void *handle, const char *sql, int n_params, const char *const *params, struct store_rows *rows,
                        struct error *e)
{
    return finish(handle, pq.PQexecParams(handle, sql, n_params, NULL, params, NULL, NULL, 0), rows, e);
}

static int postgres_script(void *handle, const char *sql, struct error *e)
{
    return finish(handle, pq.PQexec(handle, sql), NULL, e);
}

static int postgres_begin_writing(void *handle, struct error *e)
{
    return postgres_script(handle, "BEGIN; SELECT pg_advisory_xact_lock(" WRITERS_LOCK ")", e);
}

static void postgres_describe(void *handle, char *text, int size)
{
    const char *host = pq.PQhost(handle);
    snprintf(text, (size_t)size, "PostgreSQL database %s on %s", pq.PQdb(handle), host && *host ? host : "localhost");
}

const struct store_engine store_postgres = {
    .serial_key = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    .table_exists_sql = "SELECT count(*) FROM information_schema.tables "
                        "WHERE table_schema = current_schema() AND table_name = $1",
    .table_count_sql = "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()",
    .open = postgres_open,
    .close = postgres_close,
    .run = postgres_run,
    .script = postgres_script,
    .begin_writing = postgres_begin_writing,
    .describe = postgres_describe,
};
