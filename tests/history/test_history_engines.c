/*
 * The ingest rules on both engines, the same tests against a SQLite file and against a real PostgreSQL server
 * the test starts itself (tests/history/postgres_server.h): the same folder twice adds nothing; a half-written,
 * truncated or malformed folder is refused and leaves the database as it was (SQLite: byte for byte;
 * PostgreSQL: every table's row count); eight ingests of different runs at once, as separate processes, lose
 * and duplicate nothing, and eight more of the same runs add nothing; a rectangle is a job apart from the square of
 * its variant, a history of schema version 1 and a history CSV from before rows, cols and inner read as squares of
 * their widths. PostgreSQL also names an unreachable server and a refused login, exit 4, and where libpq cannot be
 * loaded SQLite still works and PostgreSQL is refused, exit 3. Without libpq or PostgreSQL's server installed
 * (scripts/setup test installs postgresql) the tests that need them show as skipped, saying which is missing.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "../support/run_shell.h"
#include "postgres_server.h"

#define FIXTURE "tests/fixtures/report-run"
/* A run of cublas_bf16 at 1024 and at 8192x3072x1024 (width 0), with its samples and metrics. */
#define SHAPES "tests/fixtures/history-shapes"
#define COMMITTED "reports/history-h100.sql"
#define CONCURRENT 8
#define OPENING_ROUNDS 16

static const char *const tables[] = {"machine", "run", "environment", "job", "result", "sample", "figure", "metric"};
#define TABLES ((int)(sizeof tables / sizeof *tables))

struct engine {
    const char *name;
    char workdir[64];
    struct postgres_server server; /* PostgreSQL only */
    bool postgres;
    char missing[1024]; /* PostgreSQL only: why it cannot be tested here (libpq or the server not installed) */
    int databases; /* made so far, each test its own */
};

static struct engine sqlite_engine = {.name = "SQLite"}, postgres_engine = {.name = "PostgreSQL", .postgres = true};

static const char *tool(void)
{
    const char *path = getenv("MEMSCOPE_HISTORY");
    return path ? path : "build/memscope-history";
}

/* A new, empty database of the engine: a SQLite file not there yet, or a PostgreSQL database just made. */
static void new_database(struct engine *g, char *target, size_t size)
{
    char name[32];
    snprintf(name, sizeof name, "history%d", ++g->databases);
    if (!g->postgres) {
        snprintf(target, size, "%s/%s.db", g->workdir, name);
        return;
    }
    struct error e = {0};
    if (postgres_create_database(&g->server, name, &e))
        fail_msg("CREATE DATABASE %s: %s", name, e.message);
    postgres_target(&g->server, name, target, size);
}

static void count_rows(const char *target, long counts[TABLES])
{
    struct store *s;
    struct error e = {0};
    if (store_open(target, 0, &s, &e))
        fail_msg("%s", e.message);
    for (int t = 0; t < TABLES; ++t) {
        char sql[64], value[32];
        int found;
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", tables[t]);
        if (store_value(s, sql, 0, NULL, value, (int)sizeof value, &found, &e))
            fail_msg("%s", e.message);
        counts[t] = atol(value);
    }
    store_close(s);
}

/* What must not change: every table's row count, and a SQLite file's every byte (copied beside it). */
struct snapshot {
    long counts[TABLES];
};

static void take_snapshot(const struct engine *g, const char *target, struct snapshot *s)
{
    static struct outcome o;
    count_rows(target, s->counts);
    if (!g->postgres) {
        shell(&o, "cp %s %s.before", target, target);
        assert_int_equal(o.exit_code, 0);
    }
}

static void expect_unchanged(const struct engine *g, const char *target, const struct snapshot *before)
{
    static struct outcome o;
    long now[TABLES];
    count_rows(target, now);
    for (int t = 0; t < TABLES; ++t)
        if (now[t] != before->counts[t])
            fail_msg("%s: %s holds %ld rows, %ld before", g->name, tables[t], now[t], before->counts[t]);
    if (!g->postgres) {
        shell(&o, "cmp %s %s.before", target, target);
        if (o.exit_code)
            fail_msg("%s: the file changed: %s", g->name, o.output);
    }
}

static void expect(const struct outcome *o, int code, const char *text)
{
    if (o->exit_code != code || !strstr(o->output, text))
        fail_msg("expected exit %d and \"%s\"; got %d:\n%s", code, text, o->exit_code, o->output);
}

/* Runs 0..CONCURRENT-1: the fixture at other start times, so other runs. And shapes-later: the shapes' run at a
 * later commit, its rectangle 10 % slower (min_ms, q1_ms, median_ms and q3_ms are summary.csv's columns 13 to 16). */
static int make_runs(const char *workdir)
{
    static struct outcome o;
    shell(&o,
          "for i in $(seq 0 %d); do cp -r %s %s/run$i && sed -i \"s/^time_utc,.*/time_utc,2026-12-0${i}T12:00:00Z/\" "
          "%s/run$i/environment.csv || exit 1; done",
          CONCURRENT - 1, FIXTURE, workdir, workdir);
    if (o.exit_code)
        return o.exit_code;
    shell(&o,
          "d=%s/shapes-later && cp -r %s $d && sed -i 's/^git_commit,.*/git_commit,7e57ab1e/; "
          "s/^time_utc,.*/time_utc,2026-12-11T08:00:00Z/' $d/environment.csv && "
          "awk -F, -v OFS=, 'NR > 1 && $4 == 0 {for (c = 13; c <= 16; ++c) $c = sprintf(\"%%.10g\", $c * 1.1)} 1' "
          "$d/summary.csv >$d/slower.csv && mv $d/slower.csv $d/summary.csv",
          workdir, SHAPES);
    return o.exit_code;
}

/* The rows of a query as text: cells joined by spaces, each row ending in a line break. */
static void query(const char *target, const char *sql, char *text, size_t size)
{
    struct store *s;
    struct store_rows rows;
    struct error e = {0};
    if (store_open(target, 0, &s, &e) || store_run(s, sql, 0, NULL, &rows, &e))
        fail_msg("%s: %s", sql, e.message);
    size_t used = 0;
    text[0] = '\0';
    for (int row = 0; row < rows.rows; ++row)
        for (int c = 0; c < rows.columns && used < size; ++c) {
            const char *cell = store_cell(&rows, row, c);
            used += (size_t)snprintf(text + used, size - used, "%s%s", cell ? cell : "NULL",
                                     c + 1 < rows.columns ? " " : "\n");
        }
    store_rows_free(&rows);
    store_close(s);
}

/* Each job, its size and its samples over every run. */
static const char jobs_and_samples[] =
    "SELECT j.name, j.width, j.rows, j.cols, j.\"inner\", count(*) FROM job j JOIN result r ON r.job_id = j.id "
    "JOIN sample s ON s.result_id = r.id GROUP BY j.id, j.name, j.width, j.rows, j.cols, j.\"inner\" ORDER BY j.id";

static void expect_absent(const struct outcome *o, const char *text)
{
    if (strstr(o->output, text))
        fail_msg("expected no \"%s\"; got:\n%s", text, o->output);
}

static struct engine *ready(void **state)
{
    struct engine *g = *state;
    if (g->missing[0]) {
        print_message("%s: skipped\n", g->missing);
        skip();
    }
    return g;
}

static void the_same_folder_twice_adds_nothing(void **state)
{
    struct engine *g = ready(state);
    static struct outcome o;
    char target[256];
    struct snapshot once;
    new_database(g, target, sizeof target);
    shell(&o, "%s add --db '%s' %s/run0", tool(), target, g->workdir);
    expect(&o, 0, "recorded in");
    take_snapshot(g, target, &once);
    assert_int_equal(once.counts[1], 1);
    shell(&o, "%s add --db '%s' %s/run0", tool(), target, g->workdir);
    expect(&o, 0, "recorded already; nothing added");
    expect_unchanged(g, target, &once);
}

/* Each is refused alone, and beside a good folder: nothing of either is recorded. */
static void a_folder_that_cannot_be_read_is_refused_and_nothing_changes(void **state)
{
    struct engine *g = ready(state);
    static struct outcome o;
    char target[256];
    struct snapshot before;
    new_database(g, target, sizeof target);
    shell(&o, "%s add --db '%s' %s/run0", tool(), target, g->workdir);
    expect(&o, 0, "recorded in");
    take_snapshot(g, target, &before);
    /* %1$s: the work folder. */
    const char *const damaged[][2] = {
        {"cp -r %1$s/run1 %1$s/half.partial", "half.partial: an incomplete run"},
        {"cp -r %1$s/run1 %1$s/cut && head -n -3 %1$s/cut/samples.csv >%1$s/cut.csv && mv %1$s/cut.csv "
         "%1$s/cut/samples.csv",
         "(file truncated?)"},
        {"cp -r %1$s/run1 %1$s/word && sed -i '2s/,converged,[0-9.]*,/,converged,abc,/' %1$s/word/summary.csv",
         "column 'min_ms' holds 'abc', not a number"},
    };
    const char *const folders[] = {"half.partial", "cut", "word"};
    for (int i = 0; i < 3; ++i) {
        char make[512];
        snprintf(make, sizeof make, damaged[i][0], g->workdir);
        shell(&o, "%s", make);
        assert_int_equal(o.exit_code, 0);
        shell(&o, "%s add --db '%s' %s/%s", tool(), target, g->workdir, folders[i]);
        expect(&o, 2, damaged[i][1]);
        expect_unchanged(g, target, &before);
        shell(&o, "%s add --db '%s' %s/run2 %s/%s", tool(), target, g->workdir, g->workdir, folders[i]);
        expect(&o, 2, damaged[i][1]);
        expect_unchanged(g, target, &before);
    }
}

/* Eight processes, one run each, at once: every row there once. Then the same eight again: nothing added. */
static void concurrent_ingests_lose_and_duplicate_nothing(void **state)
{
    struct engine *g = ready(state);
    static struct outcome o;
    char one[256], target[256];
    long single[TABLES];
    struct snapshot all;
    new_database(g, one, sizeof one);
    shell(&o, "%s add --db '%s' %s/run0", tool(), one, g->workdir);
    expect(&o, 0, "recorded in");
    count_rows(one, single);
    new_database(g, target, sizeof target);
    for (int wave = 0; wave < 2; ++wave) {
        shell(&o,
              "for i in $(seq 0 %2$d); do (%3$s add --db '%4$s' %1$s/run$i >%1$s/add$i.log 2>&1; "
              "echo $? >%1$s/add$i.status) & done; wait; cat %1$s/add*.status | sort | uniq -c | tr -s ' '",
              g->workdir, CONCURRENT - 1, tool(), target);
        char expected[32];
        snprintf(expected, sizeof expected, " %d 0\n", CONCURRENT);
        if (strcmp(o.output, expected)) {
            shell(&o, "cat %s/add*.log", g->workdir);
            fail_msg("%s: an ingest failed:\n%s", g->name, o.output);
        }
        if (wave == 0) {
            take_snapshot(g, target, &all);
            /* Shared rows once (the machine, the fixture's jobs); each run's rows once per run. */
            for (int t = 0; t < TABLES; ++t) {
                bool shared = !strcmp(tables[t], "machine") || !strcmp(tables[t], "job");
                long expected_rows = shared ? single[t] : CONCURRENT * single[t];
                if (all.counts[t] != expected_rows)
                    fail_msg("%s: %s holds %ld rows; expected %ld", g->name, tables[t], all.counts[t], expected_rows);
            }
        }
    }
    shell(&o, "grep -l 'recorded already; nothing added' %s/add*.log | wc -l", g->workdir);
    assert_int_equal(atoi(o.output), CONCURRENT);
    expect_unchanged(g, target, &all);
}

/* Eight processes that open one new history at once: one creates the schema, the others wait for it and find it
 * theirs. Once, one of them could count the tables just made and then miss schema_version among them, and take
 * the new history for another program's database (about one round in four on PostgreSQL): hence the rounds. */
static void eight_that_open_a_new_history_at_once_all_find_it_theirs(void **state)
{
    struct engine *g = ready(state);
    static struct outcome o;
    for (int round = 0; round < OPENING_ROUNDS; ++round) {
        char target[256];
        new_database(g, target, sizeof target);
        /* An empty SQLite file, which a command that writes takes for a new history (one that reads refuses it). */
        shell(&o,
              "%1$s '%5$s' && rm -f %2$s/open.log && for i in $(seq 1 %3$d); do %4$s add --db '%5$s' %2$s/run0 "
              ">/dev/null 2>>%2$s/open.log & done; wait; cat %2$s/open.log",
              g->postgres ? "test -n" : "touch", g->workdir, CONCURRENT, tool(), target);
        if (o.exit_code || o.output[0])
            fail_msg("%s, round %d of %d:\n%s", g->name, round + 1, OPENING_ROUNDS, o.output);
    }
}

/* A dump of either engine (what the repository commits) reads back as the history it was written from. */
static void a_dump_reads_back_as_the_history_it_was(void **state)
{
    struct engine *g = ready(state);
    static struct outcome o;
    char target[256];
    new_database(g, target, sizeof target);
    shell(
        &o,
        "%1$s add --db '%2$s' %3$s/run3 %3$s/run4 && %1$s dump --db '%2$s' >%3$s/dump.sql && "
        "%1$s export --db '%2$s' >%3$s/a.csv && %1$s export --db %3$s/dump.sql | cmp - %3$s/a.csv && wc -l <%3$s/a.csv",
        tool(), target, g->workdir);
    expect(&o, 0, "29\n");
}

/* A rectangle is a job of its own beside the square of its variant: recorded with its shape, its samples and metrics
 * its own (none are a figure), read back by its shape, its step named by it. */
static void a_rectangle_is_a_job_apart_from_the_square_of_its_variant(void **state)
{
    struct engine *g = ready(state);
    static struct outcome o;
    char target[256], rows[1024];
    new_database(g, target, sizeof target);
    shell(&o, "%s add --db '%s' %s", tool(), target, SHAPES);
    expect(&o, 0, "recorded in");
    query(target, jobs_and_samples, rows, sizeof rows);
    assert_string_equal(rows, "cublas_bf16 1024 1024 1024 1024 4\ncublas_bf16 0 8192 3072 1024 6\n");
    query(target,
          "SELECT j.rows, count(*), CAST(sum(m.value) AS BIGINT) FROM job j JOIN result r ON r.job_id = j.id "
          "JOIN metric m ON m.result_id = r.id GROUP BY j.id, j.rows ORDER BY j.id",
          rows, sizeof rows);
    assert_string_equal(rows, "1024 1 65536\n8192 2 1576960\n");
    query(target, "SELECT count(*) FROM figure WHERE name IN ('width', 'rows', 'cols', 'inner')", rows, sizeof rows);
    assert_string_equal(rows, "0\n");
    shell(&o, "%s series --db '%s' --width 8192x3072x1024 cublas_bf16", tool(), target);
    expect(&o, 0, "# cublas_bf16 bf16 8192x3072x1024 on NVIDIA H200: 1 runs");
    expect(&o, 0, "\t0.156836\t");
    expect_absent(&o, "W=1024");
    shell(&o, "%s series --db '%s' --width 1024 cublas_bf16", tool(), target);
    expect(&o, 0, "# cublas_bf16 bf16 W=1024 on NVIDIA H200: 1 runs");
    expect(&o, 0, "\t0.008128\t");
    expect_absent(&o, "8192x3072x1024");
    shell(&o, "%s add --db '%s' %s/shapes-later && %s steps --db '%s'", tool(), target, g->workdir, tool(), target);
    expect(&o, 0, "# 1 step on NVIDIA H200");
    expect(&o, 0, "2026-12-11T08:00:00Z 7e57ab1  cublas_bf16 bf16 8192x3072x1024  +10.0 %");
    shell(&o, "mkdir -p %1$s/chart && %2$s chart-data --width 8192x3072x1024 --db '%3$s' %1$s/chart && "
              "grep history_ %1$s/chart/variables.gp",
          g->workdir, tool(), target);
    expect(&o, 0, "history_width = 0\nhistory_label = \"8192x3072x1024\"\n");
}

/* The schema of version 1, as memscope-history made a history before version 2 (%s: the engine's key column type),
 * and an old run in it: cublas_bf16 at 1024, the job the shapes' run records again, and naive at 2048. */
static const char schema_1[] =
    "CREATE TABLE schema_version (version INTEGER NOT NULL);"
    "INSERT INTO schema_version VALUES (1);"
    "CREATE TABLE machine (id %1$s, host TEXT NOT NULL, gpu_name TEXT NOT NULL, gpu_uuid TEXT NOT NULL,"
    " UNIQUE (host, gpu_name, gpu_uuid));"
    "CREATE TABLE run (id %1$s, machine_id BIGINT NOT NULL REFERENCES machine (id), gpu_name TEXT NOT NULL,"
    " git_commit TEXT NOT NULL, git_dirty TEXT NOT NULL, time_utc TEXT NOT NULL,"
    " UNIQUE (gpu_name, git_commit, time_utc));"
    "CREATE TABLE environment (run_id BIGINT NOT NULL REFERENCES run (id), key TEXT NOT NULL, value TEXT NOT NULL,"
    " PRIMARY KEY (run_id, key));"
    "CREATE TABLE job (id %1$s, kind TEXT NOT NULL, name TEXT NOT NULL, precision TEXT NOT NULL,"
    " width INTEGER NOT NULL, UNIQUE (kind, name, precision, width));"
    "CREATE TABLE result (id %1$s, run_id BIGINT NOT NULL REFERENCES run (id), job_id BIGINT NOT NULL REFERENCES job "
    "(id), status TEXT, layout TEXT, reference TEXT, seed TEXT, samples INTEGER NOT NULL, stop_reason TEXT,"
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
    "CREATE INDEX metric_of_result ON metric (result_id);"
    "INSERT INTO machine (host, gpu_name, gpu_uuid) VALUES ('vm', 'NVIDIA H200', 'GPU-0');"
    "INSERT INTO run (machine_id, gpu_name, git_commit, git_dirty, time_utc)"
    " SELECT id, gpu_name, '0dd0ld0', '0', '2026-12-01T08:00:00Z' FROM machine;"
    "INSERT INTO job (kind, name, precision, width) VALUES ('variant', 'cublas_bf16', 'bf16', 1024),"
    " ('variant', 'naive', 'fp32', 2048);"
    "INSERT INTO result (run_id, job_id, samples, median_ms) SELECT run.id, job.id, 1, 0.0081 FROM run, job;"
    "INSERT INTO sample (result_id, sample, time_ms) SELECT id, 0, median_ms FROM result;";

static void make_old_history(const char *target)
{
    struct store *s;
    struct error e = {0};
    char sql[sizeof schema_1 + 256];
    if (store_open(target, 1, &s, &e))
        fail_msg("%s", e.message);
    snprintf(sql, sizeof sql, schema_1, store_engine_of(s)->serial_key);
    store_script(s, sql, &e);
    store_close(s);
    if (e.code)
        fail_msg("the schema of version 1: %s", e.message);
}

/* A history of schema version 1 is brought up to date when opened, by a command that reads as by one that writes:
 * each job's rows, cols and inner are its width (a square's), its results stay its own, and a run recorded after
 * adds its squares to the jobs there and its rectangle beside them. */
static void a_history_of_version_1_takes_its_widths_as_squares(void **state)
{
    struct engine *g = ready(state);
    static struct outcome o;
    char target[256], rows[1024];
    new_database(g, target, sizeof target);
    make_old_history(target);
    shell(&o, "%s series --db '%s' naive", tool(), target);
    expect(&o, 0, "# naive fp32 W=2048 on NVIDIA H200: 1 runs");
    query(target, "SELECT version FROM schema_version", rows, sizeof rows);
    assert_string_equal(rows, "2\n");
    query(target, "SELECT name, width, rows, cols, \"inner\" FROM job ORDER BY id", rows, sizeof rows);
    assert_string_equal(rows, "cublas_bf16 1024 1024 1024 1024\nnaive 2048 2048 2048 2048\n");
    shell(&o, "%s add --db '%s' %s", tool(), target, SHAPES);
    expect(&o, 0, "recorded in");
    query(target, jobs_and_samples, rows, sizeof rows);
    assert_string_equal(rows, "cublas_bf16 1024 1024 1024 1024 5\nnaive 2048 2048 2048 2048 1\n"
                              "cublas_bf16 0 8192 3072 1024 6\n");
    shell(&o, "%s series --db '%s' --width 1024 cublas_bf16 | cut -f2,3", tool(), target);
    expect(&o, 0, "commit\tmedian_ms\n0dd0ld0\t0.0081\n5ac0b1e\t0.008128\n");
}

/* A history CSV exported before rows, cols and inner (its header ends at dram_gbs) holds squares: migrated, it
 * exports as the history it came from. A rectangle goes through export and migrate unchanged. */
static void a_history_csv_without_shapes_migrates_as_squares(void **state)
{
    struct engine *g = ready(state);
    static struct outcome o;
    char squares[256], shapes[256], again[256];
    new_database(g, squares, sizeof squares);
    new_database(g, shapes, sizeof shapes);
    new_database(g, again, sizeof again);
    shell(&o,
          "%1$s export --db %2$s >%3$s/full.csv && cut -d, -f1-15 %3$s/full.csv >%3$s/old.csv && "
          "head -n 1 %3$s/old.csv && %1$s migrate --db '%4$s' %3$s/old.csv && "
          "%1$s export --db '%4$s' | cmp - %3$s/full.csv",
          tool(), COMMITTED, g->workdir, squares);
    expect(&o, 0, "dram_gbs\n");
    expect(&o, 0, "old.csv: 13 runs recorded in");
    shell(&o,
          "%1$s add --db '%2$s' %3$s %4$s/shapes-later && %1$s export --db '%2$s' >%4$s/shapes.csv && "
          "grep -c ',0,[0-9]*,.*,8192,3072,1024$' %4$s/shapes.csv && %1$s migrate --db '%5$s' %4$s/shapes.csv && "
          "%1$s export --db '%5$s' | cmp - %4$s/shapes.csv",
          tool(), shapes, SHAPES, g->workdir, again);
    expect(&o, 0, "2\nhistory: ");
    expect(&o, 0, "shapes.csv: 2 runs recorded in");
}

/* No server at the address, and a server that refuses the user: both exit 4, named apart. */
static void an_unreachable_server_and_a_refused_login_are_named(void **state)
{
    struct engine *g = ready(state);
    static struct outcome o;
    shell(&o, "%s runs --db 'host=%s/none user=memscope dbname=postgres'", tool(), g->workdir);
    expect(&o, 4, "cannot reach the PostgreSQL server");
    shell(&o, "%s add --db 'host=%s user=intruder dbname=postgres' %s/run0", tool(), g->server.dir, g->workdir);
    expect(&o, 4, "the PostgreSQL server refused the login");
    expect(&o, 4, "role \"intruder\" does not exist");
}

/* libpq is loaded on the first PostgreSQL connection, not linked: where it cannot be loaded (here a libpq.so.5
 * that is no library, found first), a SQLite history works as ever and a PostgreSQL one is refused, exit 3,
 * naming the package. Once linked, the program did not start at all (exit 127). Needs neither libpq nor a
 * server. */
static void without_libpq_sqlite_works_and_postgresql_is_refused(void **state)
{
    struct engine *g = *state;
    static struct outcome o;
    const char *broken = "mkdir -p %1$s/no-libpq && echo 'not a library' >%1$s/no-libpq/libpq.so.5 && "
                         "LD_LIBRARY_PATH=%1$s/no-libpq${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} %2$s";
    char prefix[512];
    snprintf(prefix, sizeof prefix, broken, g->workdir, tool());
    shell(&o, "%s add --db %s/no-libpq/history.db %s/run0", prefix, g->workdir, g->workdir);
    expect(&o, 0, "recorded in");
    shell(&o, "%s runs --db 'host=%s/none user=memscope dbname=postgres'", prefix, g->workdir);
    expect(&o, 3, "PostgreSQL needs libpq: apt-get install libpq5");
}

static int engine_setup(struct engine *g)
{
    snprintf(g->workdir, sizeof g->workdir, "/tmp/memscope-engines-XXXXXX");
    return !mkdtemp(g->workdir) || make_runs(g->workdir) ? -1 : 0;
}

static int sqlite_setup(void **state)
{
    *state = &sqlite_engine;
    return engine_setup(&sqlite_engine);
}

static int postgres_setup(void **state)
{
    char why[2048];
    struct engine *g = &postgres_engine;
    *state = g;
    if (engine_setup(g))
        return -1;
    if (postgres_find(&g->server, g->missing, sizeof g->missing) && postgres_start(&g->server, why, sizeof why)) {
        print_error("%s\n", why);
        postgres_stop(&g->server);
        return -1;
    }
    return 0;
}

static int engine_teardown(void **state)
{
    struct engine *g = *state;
    bool stopped = postgres_stop(&g->server);
    if (!stopped)
        print_error("the PostgreSQL server in %s is still running\n", g->server.dir);
    return remove_tree(g->workdir) || !stopped ? -1 : 0;
}

int main(void)
{
    const struct CMUnitTest both[] = {
        cmocka_unit_test(the_same_folder_twice_adds_nothing),
        cmocka_unit_test(a_folder_that_cannot_be_read_is_refused_and_nothing_changes),
        cmocka_unit_test(concurrent_ingests_lose_and_duplicate_nothing),
        cmocka_unit_test(eight_that_open_a_new_history_at_once_all_find_it_theirs),
        cmocka_unit_test(a_dump_reads_back_as_the_history_it_was),
        cmocka_unit_test(a_rectangle_is_a_job_apart_from_the_square_of_its_variant),
        cmocka_unit_test(a_history_of_version_1_takes_its_widths_as_squares),
        cmocka_unit_test(a_history_csv_without_shapes_migrates_as_squares),
    };
    const struct CMUnitTest postgres[] = {
        cmocka_unit_test(the_same_folder_twice_adds_nothing),
        cmocka_unit_test(a_folder_that_cannot_be_read_is_refused_and_nothing_changes),
        cmocka_unit_test(concurrent_ingests_lose_and_duplicate_nothing),
        cmocka_unit_test(eight_that_open_a_new_history_at_once_all_find_it_theirs),
        cmocka_unit_test(a_dump_reads_back_as_the_history_it_was),
        cmocka_unit_test(a_rectangle_is_a_job_apart_from_the_square_of_its_variant),
        cmocka_unit_test(a_history_of_version_1_takes_its_widths_as_squares),
        cmocka_unit_test(a_history_csv_without_shapes_migrates_as_squares),
        cmocka_unit_test(an_unreachable_server_and_a_refused_login_are_named),
        cmocka_unit_test(without_libpq_sqlite_works_and_postgresql_is_refused),
    };
    return cmocka_run_group_tests_name("history on SQLite", both, sqlite_setup, engine_teardown) |
           cmocka_run_group_tests_name("history on PostgreSQL", postgres, postgres_setup, engine_teardown);
}
