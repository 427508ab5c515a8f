/*
 * The ingest rules on both engines, the same tests against a SQLite file and against a real PostgreSQL server
 * the test starts itself (tests/history/postgres_server.h): the same folder twice adds nothing; a half-written,
 * truncated or malformed folder is refused and leaves the database as it was (SQLite: byte for byte;
 * PostgreSQL: every table's row count); eight ingests of different runs at once, as separate processes, lose
 * and duplicate nothing, and eight more of the same runs add nothing. PostgreSQL also names an unreachable
 * server and a refused login, exit 4, and where libpq cannot be loaded SQLite still works and PostgreSQL is
 * refused, exit 3. Without libpq or PostgreSQL's server installed (scripts/setup test installs postgresql) the
 * tests that need them show as skipped, saying which is missing.
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

/* Runs 0..CONCURRENT-1: the fixture at other start times, so other runs. */
static int make_runs(const char *workdir)
{
    static struct outcome o;
    shell(&o,
          "for i in $(seq 0 %d); do cp -r %s %s/run$i && sed -i \"s/^time_utc,.*/time_utc,2026-12-0${i}T12:00:00Z/\" "
          "%s/run$i/environment.csv || exit 1; done",
          CONCURRENT - 1, FIXTURE, workdir, workdir);
    return o.exit_code;
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
    };
    const struct CMUnitTest postgres[] = {
        cmocka_unit_test(the_same_folder_twice_adds_nothing),
        cmocka_unit_test(a_folder_that_cannot_be_read_is_refused_and_nothing_changes),
        cmocka_unit_test(concurrent_ingests_lose_and_duplicate_nothing),
        cmocka_unit_test(eight_that_open_a_new_history_at_once_all_find_it_theirs),
        cmocka_unit_test(a_dump_reads_back_as_the_history_it_was),
        cmocka_unit_test(an_unreachable_server_and_a_refused_login_are_named),
        cmocka_unit_test(without_libpq_sqlite_works_and_postgresql_is_refused),
    };
    return cmocka_run_group_tests_name("history on SQLite", both, sqlite_setup, engine_teardown) |
           cmocka_run_group_tests_name("history on PostgreSQL", postgres, postgres_setup, engine_teardown);
}
