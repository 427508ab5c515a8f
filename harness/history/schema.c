/* The history's schema: its version, the migrations that bring a database up to it, and its SQL dump. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"

/* Version 1. Every run is known by its commit, GPU and start time (a run recorded twice is the same run);
 * machine, environment and job hold what runs share or carry beside; a result is a job in a run, with the
 * summary's timing statistics and texts as columns, its other numbers as figures (named as the summary's
 * columns), its raw samples, and the metrics of metrics.csv per kernel. A job's kind is "variant" (a suite
 * variant at a width; version 2 makes it a shape); programs profiled by other tools would be another kind. Key
 * columns are the engine's (store_engine.serial_key), hence the %s. */
static const char schema_1[] =
    "CREATE TABLE schema_version (version INTEGER NOT NULL);"
    "INSERT INTO schema_version VALUES (0);"
    "CREATE TABLE machine (id %s, host TEXT NOT NULL, gpu_name TEXT NOT NULL, gpu_uuid TEXT NOT NULL,"
    " UNIQUE (host, gpu_name, gpu_uuid));"
    "CREATE TABLE run (id %s, machine_id BIGINT NOT NULL REFERENCES machine (id), gpu_name TEXT NOT NULL,"
    " git_commit TEXT NOT NULL, git_dirty TEXT NOT NULL, time_utc TEXT NOT NULL,"
    " UNIQUE (gpu_name, git_commit, time_utc));"
    "CREATE TABLE environment (run_id BIGINT NOT NULL REFERENCES run (id), key TEXT NOT NULL, value TEXT NOT NULL,"
    " PRIMARY KEY (run_id, key));"
    "CREATE TABLE job (id %s, kind TEXT NOT NULL, name TEXT NOT NULL, precision TEXT NOT NULL,"
    " width INTEGER NOT NULL, UNIQUE (kind, name, precision, width));"
    "CREATE TABLE result (id %s, run_id BIGINT NOT NULL REFERENCES run (id), job_id BIGINT NOT NULL REFERENCES job "
    "(id),"
    " status TEXT, layout TEXT, reference TEXT, seed TEXT, samples INTEGER NOT NULL, stop_reason TEXT,"
    " min_ms DOUBLE PRECISION, q1_ms DOUBLE PRECISION, median_ms DOUBLE PRECISION, q3_ms DOUBLE PRECISION,"
    " max_ms DOUBLE PRECISION, mean_ms DOUBLE PRECISION, stdev_ms DOUBLE PRECISION, ci95_rel DOUBLE PRECISION,"
    " metrics_kernel TEXT, limiter TEXT, evidence TEXT, stall_top_reason TEXT, other_gpu_work TEXT,"
    " UNIQUE (run_id, job_id));"
    "CREATE TABLE sample (result_id BIGINT NOT NULL REFERENCES result (id), sample INTEGER NOT NULL,"
    " time_ms DOUBLE PRECISION NOT NULL, PRIMARY KEY (result_id, sample));"
    "CREATE TABLE figure (result_id BIGINT NOT NULL REFERENCES result (id), name TEXT NOT NULL,"
    " value DOUBLE PRECISION NOT NULL, PRIMARY KEY (result_id, name));"
    "CREATE TABLE metric (result_id BIGINT NOT NULL REFERENCES result (id), kernel TEXT NOT NULL, name TEXT NOT NULL,"
    " value DOUBLE PRECISION, unit TEXT NOT NULL);"
    "CREATE INDEX metric_of_result ON metric (result_id);";

static int migrate_to_1(struct store *s, struct error *e)
{
    const char *key = store_engine_of(s)->serial_key;
    char sql[sizeof schema_1 + 4 * 64];
    snprintf(sql, sizeof sql, schema_1, key, key, key, key);
    return store_script(s, sql, e);
}

/* Version 2. A job is a variant at a product's shape (results/product_shape.h), no longer at a width alone: job
 * gains rows, cols and inner, filled from width for the squares recorded before, and is known by its shape (width,
 * 0 for every rectangle, can no longer tell jobs apart). "inner" is quoted: PostgreSQL reserves the word.
 *
 * SQLite cannot drop a table's constraint, so there job is made again: its rows wait in a copy while it is dropped
 * and made anew, and the results' foreign keys to it are checked at the commit, when every id is back. */
static const char job_by_shape_sqlite[] =
    "PRAGMA defer_foreign_keys = ON;"
    "CREATE TEMP TABLE job_by_width AS SELECT * FROM job;"
    "DROP TABLE job;"
    "CREATE TABLE job (id %s, kind TEXT NOT NULL, name TEXT NOT NULL, precision TEXT NOT NULL,"
    " width INTEGER NOT NULL, rows INTEGER NOT NULL, cols INTEGER NOT NULL, \"inner\" INTEGER NOT NULL,"
    " UNIQUE (kind, name, precision, rows, cols, \"inner\"));"
    "INSERT INTO job SELECT id, kind, name, precision, width, width, width, width FROM job_by_width;"
    "DROP TABLE job_by_width;";

/* PostgreSQL alters job in place: its key constraint has the name PostgreSQL gave it at version 1. */
static const char job_by_shape_postgres[] =
    "ALTER TABLE job ADD COLUMN rows INTEGER, ADD COLUMN cols INTEGER, ADD COLUMN \"inner\" INTEGER;"
    "UPDATE job SET rows = width, cols = width, \"inner\" = width;"
    "ALTER TABLE job ALTER COLUMN rows SET NOT NULL, ALTER COLUMN cols SET NOT NULL,"
    " ALTER COLUMN \"inner\" SET NOT NULL, DROP CONSTRAINT job_kind_name_precision_width_key,"
    " ADD UNIQUE (kind, name, precision, rows, cols, \"inner\");";

static int migrate_to_2(struct store *s, struct error *e)
{
    if (store_engine_of(s) == &store_postgres)
        return store_script(s, job_by_shape_postgres, e);
    char sql[sizeof job_by_shape_sqlite + 64];
    snprintf(sql, sizeof sql, job_by_shape_sqlite, store_engine_of(s)->serial_key);
    return store_script(s, sql, e);
}

/* migrations[v - 1] brings a database from version v - 1 to v; a new version appends one and raises
 * HISTORY_SCHEMA_VERSION. */
static int (*const migrations[HISTORY_SCHEMA_VERSION])(struct store *, struct error *) = {migrate_to_1, migrate_to_2};

/* The tables in the order a dump writes them (each after those it refers to), with the order of their rows. */
static const char *const dumped_tables[][2] = {
    {"machine", "id"},
    {"run", "id"},
    {"environment", "run_id, key"},
    {"job", "id"},
    {"result", "id"},
    {"sample", "result_id, sample"},
    {"figure", "result_id, name"},
    {"metric", "result_id, kernel, name, value"},
};

static int migrate(struct store *s, int from, int to, struct error *e)
{
    char version[16];
    for (int v = from + 1; v <= to; ++v)
        if (migrations[v - 1](s, e))
            return e->code;
    snprintf(version, sizeof version, "%d", to);
    const char *param = version;
    return store_run(s, "UPDATE schema_version SET version = $1", 1, &param, NULL, e);
}

/* The tables are counted before schema_version is looked for: another process may create the schema between the
 * two queries, and then schema_version appears with the tables it counted, never after them. Counted the other
 * way round, a new history would look like another program's database. */
static int read_version(struct store *s, int *version, struct error *e)
{
    int exists, found;
    char value[32];
    *version = 0;
    if (store_value(s, store_engine_of(s)->table_count_sql, 0, NULL, value, (int)sizeof value, &found, e) ||
        store_table_exists(s, "schema_version", &exists, e))
        return e->code;
    if (!exists) {
        /* Another program's database is left alone: memscope writes only into its own, or an empty one. */
        if (atoi(value) > 0)
            return error_set(e, EXIT_USAGE, "%s: not a memscope history (it holds tables, but no schema_version)",
                             store_name(s));
        return 0;
    }
    if (store_value(s, "SELECT version FROM schema_version", 0, NULL, value, (int)sizeof value, &found, e))
        return e->code;
    if (!found)
        return error_set(e, EXIT_USAGE, "%s: not a memscope history (schema_version is empty)", store_name(s));
    *version = atoi(value);
    return 0;
}

static int refuse_newer(const struct store *s, int version, struct error *e)
{
    return error_set(e, EXIT_USAGE,
                     "%s: schema version %d is newer than this memscope-history knows (%d): use a newer memscope",
                     store_name(s), version, HISTORY_SCHEMA_VERSION);
}

/* Migrates under the writers' lock, reading the version again there: another process may have just done it. An
 * empty database (no table at all: a new file, or an empty one) becomes a history only for a command that writes
 * into it; one that reads leaves it as it is. */
static int bring_up_to_date(struct store *s, int writing, struct error *e)
{
    int version;
    if (read_version(s, &version, e))
        return e->code;
    if (version > HISTORY_SCHEMA_VERSION)
        return refuse_newer(s, version, e);
    if (version == 0 && !writing)
        return error_set(e, EXIT_USAGE, "%s: an empty database, no memscope history yet (memscope-history add "
                                        "records runs in it); left as it is", store_name(s));
    if (version == HISTORY_SCHEMA_VERSION)
        return 0;
    if (store_begin_writing(s, e))
        return e->code;
    if (read_version(s, &version, e) ||
        (version < HISTORY_SCHEMA_VERSION && migrate(s, version, HISTORY_SCHEMA_VERSION, e)) || store_commit(s, e))
        store_rollback(s);
    return e->code;
}

/* ---- the dump ---- */

static const char dump_header[] = "-- memscope history dump, schema version %d";
/* Its last line, written since 2026-11-30: a dump cut short at a line's end reads as a smaller history otherwise. */
static const char dump_end[] = "\n-- end of memscope history dump: %zu rows";

static void put_literal(FILE *out, const char *text)
{
    if (!text) {
        fputs("NULL", out);
        return;
    }
    fputc('\'', out);
    for (; *text; ++text) {
        if (*text == '\'')
            fputc('\'', out); /* SQL doubles a quote inside a literal */
        fputc(*text, out);
    }
    fputc('\'', out);
}

static int dump_table(struct store *s, const char *table, const char *order, FILE *out, size_t *rows_written,
                      struct error *e)
{
    char sql[256];
    struct store_rows rows;
    snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY %s", table, order);
    if (store_run(s, sql, 0, NULL, &rows, e))
        return e->code;
    for (int row = 0; row < rows.rows; ++row) {
        fprintf(out, "INSERT INTO %s VALUES (", table);
        for (int c = 0; c < rows.columns; ++c) {
            fputs(c ? ", " : "", out);
            put_literal(out, store_cell(&rows, row, c));
        }
        fputs(");\n", out);
    }
    *rows_written += (size_t)rows.rows;
    store_rows_free(&rows);
    return 0;
}

int history_dump(struct store *s, FILE *out, struct error *e)
{
    fprintf(out, dump_header, HISTORY_SCHEMA_VERSION);
    fputs(" (memscope-history dump): memscope-history --db THIS_FILE reads it.\n", out);
    size_t rows = 0;
    for (size_t t = 0; t < sizeof dumped_tables / sizeof *dumped_tables; ++t)
        if (dump_table(s, dumped_tables[t][0], dumped_tables[t][1], out, &rows, e))
            return e->code;
    fprintf(out, dump_end + 1, rows); /* its own line: the rows end with a line break */
    fputc('\n', out);
    if (fflush(out) || ferror(out))
        return error_set(e, EXIT_OUTPUT, "writing the dump failed: %s", strerror(errno));
    return 0;
}

static char *read_whole(const char *path, struct error *e)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        error_set(e, EXIT_USAGE, "%s: cannot be read: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    size_t used = 0, room = 0, got;
    do {
        if (used + 4096 + 1 > room) {
            room = 2 * room + 4096 + 1;
            char *grown = realloc(text, room);
            if (!grown) {
                free(text);
                fclose(f);
                error_set(e, EXIT_RUNTIME, "out of memory");
                return NULL;
            }
            text = grown;
        }
        used += got = fread(text + used, 1, 4096, f);
    } while (got > 0);
    text[used] = '\0';
    fclose(f);
    return text;
}

/* The end of the statement that starts at sql: the ';' outside quotes, or the end of the text. */
static char *statement_end(char *sql)
{
    int quoted = 0;
    for (; *sql; ++sql)
        if (*sql == '\'')
            quoted = !quoted;
        else if (*sql == ';' && !quoted)
            return sql;
    return sql;
}

static int known_insert(const char *statement)
{
    for (size_t t = 0; t < sizeof dumped_tables / sizeof *dumped_tables; ++t) {
        char start[64];
        snprintf(start, sizeof start, "INSERT INTO %s VALUES (", dumped_tables[t][0]);
        if (!strncmp(statement, start, strlen(start)))
            return 1;
    }
    return 0;
}

/* A dump is data, not a program: each statement must be an INSERT into a table of the history, and runs on its
 * own (so that nothing can ATTACH a file or change a setting). One the database refuses is the file's fault. */
static int run_inserts(struct store *s, const char *path, char *body, size_t *rows, struct error *e)
{
    int line = 1; /* body starts with the header line's line break */
    for (char *at = body; *at && !e->code;) {
        while (*at == '\n' || *at == ' ')
            line += *at++ == '\n';
        if (!*at)
            break;
        char *end = statement_end(at), kept = *end;
        *end = '\0';
        struct error refused = {0};
        if (!known_insert(at))
            error_set(e, EXIT_USAGE, "%s:%d: not an INSERT of a memscope history dump", path, line);
        else if (store_run(s, at, 0, NULL, NULL, &refused))
            error_set(e, EXIT_USAGE, "%s:%d: damaged (cut short?): %s", path, line, refused.message);
        else
            ++*rows;
        for (char *c = at; c < end; ++c)
            line += *c == '\n';
        at = kept ? end + 1 : end;
    }
    return e->code;
}

/* Cuts the end line off the body and checks the rows read against it. Without one (a dump written before
 * 2026-11-30, or one cut short at a line's end) the rows are read as they are, and stderr says so. */
static char *end_of_dump(char *body, size_t *rows_said)
{
    char *end = strstr(body, "\n-- end of memscope history dump: ");
    if (!end || sscanf(end, dump_end, rows_said) != 1)
        return NULL;
    end[1] = '\0';
    return end;
}

static int check_rows(const char *path, const char *end, size_t said, size_t read, struct error *e)
{
    if (!end)
        fprintf(stderr, "memscope-history: %s has no end line (a dump written before 2026-11-30, or one cut short): "
                        "its %zu rows are read as they are\n", path, read);
    else if (said != read)
        error_set(e, EXIT_USAGE, "%s: %zu rows, where its end line says %zu: cut short or edited", path, read, said);
    return e->code;
}

static int load_dump(struct store *s, const char *path, struct error *e)
{
    char *text = read_whole(path, e);
    if (!text)
        return e->code;
    int version = 0;
    size_t said = 0, rows = 0;
    char *body = strchr(text, '\n');
    const char *end = body ? end_of_dump(body, &said) : NULL;
    if (sscanf(text, dump_header, &version) != 1 || version < 1 || !body)
        error_set(e, EXIT_USAGE, "%s:1: not a memscope history dump (it starts with \"-- memscope history dump\")",
                  path);
    else if (version > HISTORY_SCHEMA_VERSION)
        refuse_newer(s, version, e);
    else if (!store_begin_writing(s, e) && !migrate(s, 0, version, e) && !run_inserts(s, path, body, &rows, e) &&
             !check_rows(path, end, said, rows, e) && !migrate(s, version, HISTORY_SCHEMA_VERSION, e))
        store_commit(s, e);
    if (e->code)
        store_rollback(s);
    free(text);
    return e->code;
}

/* The history before it was a database was a CSV: one given as the database is named as such. */
static int is_csv_history(const char *path)
{
    char header[64] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int read = fgets(header, sizeof header, f) != NULL;
    fclose(f);
    return read && !strncmp(header, "commit,dirty,gpu_name,time_utc,", 31);
}

int history_open(const char *target, int writing, struct store **s, struct error *e)
{
    int sqlite = !store_target_is_postgres(target), dump = store_target_is_dump(target);
    *s = NULL;
    if (sqlite && is_csv_history(target))
        return error_set(e, EXIT_USAGE,
                         "%s: a CSV history, not a database: record its runs in one with memscope-history migrate "
                         "--db DATABASE %s",
                         target, target);
    if (dump && writing)
        return error_set(e, EXIT_USAGE,
                         "%s: a SQL dump is read only: record runs in a database (--db FILE.db or a connection "
                         "string), then write its dump with memscope-history dump",
                         target);
    if (store_open(target, writing, s, e))
        return e->code;
    if (dump ? load_dump(*s, target, e) : bring_up_to_date(*s, writing, e)) {
        store_close(*s);
        *s = NULL;
    }
    return e->code;
}
