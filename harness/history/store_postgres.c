/* The PostgreSQL engine: one history that a fleet of runners writes to over the network. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

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
    snprintf(why, sizeof why, "%s", PQerrorMessage(connection));
    why[strcspn(why, "\n")] = '\0';
    switch (PQpingParams(keywords, values, 1)) {
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
    const char *state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : NULL;
    char why[512];
    snprintf(why, sizeof why, "%s", result ? PQresultErrorMessage(result) : PQerrorMessage(connection));
    why[strcspn(why, "\n")] = '\0';
    const char *database = PQdb(connection);
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
    const char *values[] = {"10", "memscope-history", target, NULL};
    PGconn *connection = PQconnectdbParams(keywords, values, 1);
    if (!connection)
        return error_set(e, EXIT_RUNTIME, "out of memory");
    if (PQstatus(connection) != CONNECTION_OK) {
        connection_failed(connection, values, e);
        PQfinish(connection);
        return e->code;
    }
    PQsetNoticeProcessor(connection, quiet, NULL);
    *handle = connection;
    return 0;
}

static void postgres_close(void *handle)
{
    PQfinish(handle);
}

static int collect(const PGresult *result, struct store_rows *rows, struct error *e)
{
    int columns = PQnfields(result);
    const char *cells[STORE_MAX_COLUMNS];
    if (columns > STORE_MAX_COLUMNS)
        return error_set(e, EXIT_RUNTIME, "a query of more than %d columns", STORE_MAX_COLUMNS);
    for (int row = 0; row < PQntuples(result); ++row) {
        for (int c = 0; c < columns; ++c)
            cells[c] = PQgetisnull(result, row, c) ? NULL : PQgetvalue(result, row, c);
        if (store_rows_append(rows, columns, cells, e))
            return e->code;
    }
    return 0;
}

static int finish(PGconn *connection, PGresult *result, struct store_rows *rows, struct error *e)
{
    ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
        statement_failed(connection, result, e);
    else if (rows && collect(result, rows, e))
        store_rows_free(rows);
    PQclear(result);
    return e->code;
}

static int postgres_run(void *handle, const char *sql, int n_params, const char *const *params, struct store_rows *rows,
                        struct error *e)
{
    return finish(handle, PQexecParams(handle, sql, n_params, NULL, params, NULL, NULL, 0), rows, e);
}

static int postgres_script(void *handle, const char *sql, struct error *e)
{
    return finish(handle, PQexec(handle, sql), NULL, e);
}

static int postgres_begin_writing(void *handle, struct error *e)
{
    return postgres_script(handle, "BEGIN; SELECT pg_advisory_xact_lock(" WRITERS_LOCK ")", e);
}

static void postgres_describe(void *handle, char *text, int size)
{
    const char *host = PQhost(handle);
    snprintf(text, (size_t)size, "PostgreSQL database %s on %s", PQdb(handle), host && *host ? host : "localhost");
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
