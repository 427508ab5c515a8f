/*
 * memscope-history on SQLite, its default engine: runs recorded once each, steps marked and listed with the
 * counters that moved, what is not a history (or a newer one) refused, the dump and the CSV history read back as
 * they were, make history in a fresh clone, and make report's run recorded in the default history. Fixture runs
 * are cut from the H100 reference run; the binary comes from MEMSCOPE_HISTORY. Both engines' ingest rules are
 * tests/history/test_history_engines.c's.
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

#include "../../harness/history/history.h"
#include "../../harness/history/store.h"
#include "../support/remove_tree.h"
#include "../support/rewrite_csv.h"
#include "../support/fresh_copy.h"
#include "../support/run_shell.h"

#define FIXTURE "tests/fixtures/report-run"
#define COMMITTED "reports/history-h100.sql"

static char workdir[] = "/tmp/memscope-history-XXXXXX";
static char history[128], later[128];

static const char *tool(void)
{
    const char *path = getenv("MEMSCOPE_HISTORY");
    return path ? path : "build/memscope-history";
}

static bool slowed(const char *variant)
{
    return !strcmp(variant, "tiled_transposed");
}

/* The summary of a later run: tiled_transposed 6 % slower (median and quartiles), with twice the exact conflicts. */
static void slow_down_tiled_transposed(const struct csv_table *t, int row, char **fields)
{
    (void)row;
    if (!slowed(fields[0]))
        return;
    for (int c = 0; c < t->columns; ++c)
        if (!strcmp(t->header[c], "median_ms") || !strcmp(t->header[c], "q1_ms") || !strcmp(t->header[c], "q3_ms"))
            snprintf(fields[c], 256, "%.10g", atof(fields[c]) * 1.06);
        else if (!strcmp(t->header[c], "shared_conflicts_exact"))
            snprintf(fields[c], 256, "%.10g", atof(fields[c]) * 2);
}

/* Its metrics: tiled_transposed's shared store wavefronts doubled. */
static void double_its_store_wavefronts(const struct csv_table *t, int row, char **fields)
{
    (void)t;
    (void)row;
    if (slowed(fields[0]) && !strcmp(fields[4], "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"))
        snprintf(fields[5], 256, "%.10g", atof(fields[5]) * 2);
}

static int setup(void **state)
{
    (void)state;
    static struct outcome o;
    if (!mkdtemp(workdir))
        return -1;
    snprintf(history, sizeof history, "%s/history.db", workdir);
    snprintf(later, sizeof later, "%s/later", workdir);
    shell(&o,
          "cp -r %s %s && sed -i 's/^git_commit,.*/git_commit,1234567abc/; "
          "s/^time_utc,.*/time_utc,2026-12-01T00:00:00Z/' "
          "%s/environment.csv",
          FIXTURE, later, later);
    if (o.exit_code)
        return -1;
    rewrite_csv(later, "summary.csv", slow_down_tiled_transposed);
    rewrite_csv(later, "metrics.csv", double_its_store_wavefronts);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

static void expect(const struct outcome *o, int code, const char *text)
{
    if (o->exit_code != code || !strstr(o->output, text))
        fail_msg("expected exit %d and \"%s\"; got %d:\n%s", code, text, o->exit_code, o->output);
}

/* The same folder twice adds nothing: not a row, not a byte. */
static void runs_are_recorded_once_each(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s add --db %s %s", tool(), history, FIXTURE);
    expect(&o, 0, "recorded in");
    shell(&o, "cp %s %s.before && %s add --db %s %s", history, history, tool(), history, FIXTURE);
    expect(&o, 0, "recorded already; nothing added");
    shell(&o, "cmp %s %s.before", history, history);
    assert_int_equal(o.exit_code, 0);
    shell(&o, "%s add --db %s %s", tool(), history, later);
    expect(&o, 0, "recorded in");
    shell(&o, "%s export --db %s | cut -d, -f1 | uniq | tr '\\n' ' '", tool(), history);
    assert_string_equal(o.output, "commit 60dceeeabb15aa26c1aa7f8f3bd7cc75b0453d3b 1234567abc ");
}

/* add DATABASE RESULTS... (the form older scripts use) names the database first; a mistyped folder in its place
 * is refused as a folder, and no database appears under its name. */
static void the_database_may_come_first_but_a_mistyped_folder_is_no_database(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s add %s/first.csv %s && %s runs --db %s/first.csv | wc -l", tool(), workdir, FIXTURE, tool(), workdir);
    expect(&o, 0, "\n2\n");
    shell(&o, "(cd %s && %s%s add typo %s%s; test ! -e typo)", workdir, tool()[0] == '/' ? "" : "$OLDPWD/", tool(),
          "$OLDPWD/", FIXTURE);
    expect(&o, 0, "typo: no such results folder");
}

static void a_step_is_marked_where_the_median_moved(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "mkdir -p %s/chart && %s chart-data --db %s %s/chart", workdir, tool(), history, workdir);
    if (o.exit_code)
        fail_msg("%s", o.output);
    /* Blocks are variants in run order; column 8 is the step mark, 9 its label. */
    shell(&o, "awk -F'\\t' '$8 == 1 {print prev, $1, $9} /^# / {prev = substr($0, 3)}' %s/chart/history.tsv", workdir);
    assert_string_equal(o.output, "tiled_transposed 1 +6.0%\n");
    shell(&o, "grep -c 'set xtics' %s/chart/variables.gp && grep -o '\"1234567\" 1' %s/chart/variables.gp", workdir,
          workdir);
    assert_int_equal(o.exit_code, 0);
}

/* A step names its commit, its size with an interval, and the deterministic counts that moved with it. */
static void a_step_names_its_commit_and_the_counters_that_moved(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s steps --db %s", tool(), history);
    expect(&o, 0, "# 2 steps on NVIDIA H100 80GB HBM3");
    expect(&o, 0,
           "2026-12-01T00:00:00Z 1234567  tiled_transposed fp32 W=1024  +6.0 % (95 %: +6.0 to +6.0 %; noise "
           "not measured in 2 runs)");
    expect(&o, 0,
           "counters: shared_conflicts_exact x2, smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum x2\n");
    shell(&o, "%s series --db %s tiled_transposed | cut -f2,7", tool(), history);
    expect(&o, 0, "commit\tstep_pct\n60dceee\t\n1234567\t+6.0\n");
}

/* Each refusal leaves the file as it was: a text file, another program's database, a newer schema. */
static void expect_refused_and_unchanged(const char *path, const char *message)
{
    static struct outcome o;
    shell(&o, "cp %s %s.before && %s add --db %s %s", path, path, tool(), path, FIXTURE);
    expect(&o, 2, message);
    shell(&o, "%s runs --db %s", tool(), path);
    expect(&o, 2, message);
    shell(&o, "cmp %s %s.before", path, path);
    assert_int_equal(o.exit_code, 0);
}

static void what_is_no_history_database_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    char path[160];
    snprintf(path, sizeof path, "%s/summary.csv", workdir);
    shell(&o, "cp %s/summary.csv %s", FIXTURE, path);
    expect_refused_and_unchanged(path, "summary.csv: not a database");
    /* Another program's SQLite file: memscope writes into its own, or an empty one. */
    struct store *s;
    struct error e = {0};
    snprintf(path, sizeof path, "%s/notes.db", workdir);
    assert_int_equal(store_open(path, 1, &s, &e), 0);
    assert_int_equal(store_script(s, "CREATE TABLE notes (text TEXT)", &e), 0);
    store_close(s);
    expect_refused_and_unchanged(path, "notes.db: not a memscope history (it holds tables, but no schema_version)");
    /* The history before the database: named as such, with the command that migrates it. */
    snprintf(path, sizeof path, "%s/old-history.csv", workdir);
    shell(&o, "%s export --db %s >%s", tool(), COMMITTED, path);
    expect_refused_and_unchanged(path, "old-history.csv: a CSV history, not a database: record its runs in one with "
                                       "memscope-history migrate");
    snprintf(path, sizeof path, "%s/absent.db", workdir);
    shell(&o, "(%s runs --db %s; test ! -e %s)", tool(), path, path);
    expect(&o, 0, "absent.db: no such history database");
}

static void a_schema_newer_than_the_program_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    char path[160];
    struct store *s;
    struct error e = {0};
    snprintf(path, sizeof path, "%s/newer.db", workdir);
    shell(&o, "cp %s %s", history, path);
    assert_int_equal(store_open(path, 0, &s, &e), 0);
    assert_int_equal(store_script(s, "UPDATE schema_version SET version = 99", &e), 0);
    store_close(s);
    char message[128];
    snprintf(message, sizeof message, "newer.db: schema version 99 is newer than this memscope-history knows (%d)",
             HISTORY_SCHEMA_VERSION);
    expect_refused_and_unchanged(path, message);
}

/* The dump is what the repository commits: read back, it is the database it was written from. */
static void a_dump_reads_back_as_the_history_it_was(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o,
          "%s dump --db %s >%s/history.sql && %s export --db %s >%s/a.csv && %s export --db %s/history.sql >%s/b.csv "
          "&& cmp %s/a.csv %s/b.csv && wc -l <%s/b.csv",
          tool(), history, workdir, tool(), history, workdir, tool(), workdir, workdir, workdir, workdir, workdir);
    expect(&o, 0, "29\n");
    shell(&o, "%s add --db %s/history.sql %s", tool(), workdir, FIXTURE);
    expect(&o, 2, "history.sql: a SQL dump is read only");
    shell(&o,
          "sed -i '2s/^INSERT/ATTACH DATABASE '\\''x'\\'' AS y; INSERT/' %s/history.sql && %s runs --db %s/history.sql",
          workdir, tool(), workdir);
    expect(&o, 2, "history.sql:2: not an INSERT of a memscope history dump");
}

/* A dump ends with a line that counts its rows: one cut short at a line's end, its end line kept, is refused; one cut
 * inside a statement is refused at that line, exit 2 (the file's fault, not the database's); one without an end line
 * (written before it had one) is read, and stderr says so. */
static void a_dump_cut_short_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "d=%s && %s dump --db %s >$d/whole.sql && tail -n 1 $d/whole.sql", workdir, tool(), history);
    expect(&o, 0, "-- end of memscope history dump: ");
    shell(&o, "d=%s && { head -n 20 $d/whole.sql; tail -n 1 $d/whole.sql; } >$d/cut.sql && %s runs --db $d/cut.sql",
          workdir, tool());
    expect(&o, 2, "cut.sql: 19 rows, where its end line says ");
    shell(&o, "d=%s && head -c 1500 $d/whole.sql >$d/torn.sql && %s runs --db $d/torn.sql", workdir, tool());
    expect(&o, 2, "torn.sql:");
    expect(&o, 2, ": damaged (cut short?): ");
    shell(&o, "d=%s && head -n 20 $d/whole.sql >$d/old.sql && %s runs --db $d/old.sql", workdir, tool());
    expect(&o, 0, "old.sql has no end line (a dump written before 2026-11-30, or one cut short): its 19 rows are read");
}

/* The history before the database: a CSV, migrated by one command, exported back byte for byte. */
static void a_csv_history_migrates_and_exports_back_unchanged(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o,
          "%s export --db %s >%s/h100.csv && %s migrate --db %s/h100.db %s/h100.csv && %s export --db %s/h100.db | "
          "cmp - %s/h100.csv",
          tool(), COMMITTED, workdir, tool(), workdir, workdir, tool(), workdir, workdir);
    expect(&o, 0, "h100.csv: 13 runs recorded in");
    shell(&o, "%s migrate --db %s/h100.db %s/h100.csv", tool(), workdir, workdir);
    expect(&o, 0, "0 runs recorded in");
    /* A bad number on line 5 refuses the whole file, before anything is written. */
    shell(&o,
          "sed '5s/,fp32,1024,/,fp32,wide,/' %s/h100.csv >%s/bad.csv && cp %s/h100.db %s/h100.db.before && "
          "%s migrate --db %s/h100.db %s/bad.csv",
          workdir, workdir, workdir, workdir, tool(), workdir, workdir);
    expect(&o, 2, "bad.csv:5:");
    shell(&o, "cmp %s/h100.db %s/h100.db.before", workdir, workdir);
    assert_int_equal(o.exit_code, 0);
}

/* A command that is none is named, as is an option given before the command. */
static void an_unknown_command_is_named(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s bogus --db %s", tool(), history);
    expect(&o, 2, "memscope-history: unknown command 'bogus'; usage: memscope-history add|migrate|");
    shell(&o, "%s --db %s runs", tool(), history);
    expect(&o, 2, "memscope-history: '--db': give the command first; usage: memscope-history add|");
}

static void a_directory_given_as_the_database_is_called_one(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s runs --db %s", tool(), workdir);
    expect(&o, 2, "a directory, not a history database (name a file, such as");
    shell(&o, "%s add --db %s %s", tool(), workdir, FIXTURE);
    expect(&o, 2, "a directory, not a history database");
}

/* An empty file is a database with nothing in it: a command that reads leaves it empty (refusing it, as no history
 * yet), one that writes makes it a history. */
static void an_empty_file_is_written_only_by_a_command_that_writes(void **state)
{
    (void)state;
    static struct outcome o;
    static const char *const readers[] = {"runs", "steps", "noise", "export", "dump", "series naive"};
    char path[160];
    snprintf(path, sizeof path, "%s/empty.db", workdir);
    shell(&o, ": >%s", path);
    for (size_t i = 0; i < sizeof readers / sizeof *readers; ++i) {
        shell(&o, "%s %s --db %s", tool(), readers[i], path);
        expect(&o, 2, "empty.db: an empty database, no memscope history yet");
        shell(&o, "test ! -s %s", path);
        if (o.exit_code)
            fail_msg("%s wrote into the empty file", readers[i]);
    }
    shell(&o, "(mkdir -p %s/empty-chart && %s chart-data --db %s %s/empty-chart)", workdir, tool(), path, workdir);
    expect(&o, 2, "an empty database, no memscope history yet");
    shell(&o, "test ! -s %s", path);
    assert_int_equal(o.exit_code, 0);
    shell(&o, "%s add --db %s %s && %s runs --db %s >/dev/null", tool(), path, FIXTURE, tool(), path);
    expect(&o, 0, "recorded in"); /* runs' own status now reaches the check, not wc's */
}

/* A CSV that is no history is refused before the database is opened: a new one is not created, an old one stays. */
static void migrating_a_bad_csv_leaves_no_database(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "printf 'a,b\\n1,2\\n' >%s/bad-history.csv && %s migrate --db %s/new.db %s/bad-history.csv", workdir,
          tool(), workdir, workdir);
    expect(&o, 2, "bad-history.csv:1: not a memscope history CSV");
    shell(&o, "test ! -e %s/new.db", workdir);
    assert_int_equal(o.exit_code, 0);
    shell(&o, "%s migrate --db %s/new.db %s/no-such.csv", tool(), workdir, workdir);
    assert_int_not_equal(o.exit_code, 0); /* its refusal's status, no longer dropped by a ';' */
    shell(&o, "test ! -e %s/new.db", workdir);
    assert_int_equal(o.exit_code, 0);
}

/* A width no recorded run measured would chart nothing but NaN, on which gnuplot fails: refused at once, naming
 * the widths there are. */
static void a_width_the_history_lacks_is_refused_naming_those_it_has(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "mkdir -p %s/absent && %s chart-data --width 12345 --db %s %s/absent", workdir, tool(), history, workdir);
    assert_int_equal(o.exit_code, 2);
    if (!strstr(o.output, "--width 12345: no run") || !strstr(o.output, "widths recorded: 1024, 2048"))
        fail_msg("%s", o.output);
    shell(&o, "ls %s/absent | wc -l", workdir);
    assert_string_equal(o.output, "0\n");
}

/* A program's profile is refused before the database is touched (its jobs are launches, not variants at a shape). */
static void a_programs_profile_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s add --db %s/program.db tests/fixtures/profile-small", tool(), workdir);
    assert_int_equal(o.exit_code, 2);
    if (!strstr(o.output, "tests/fixtures/profile-small: a program's profile (memscope-profile)"))
        fail_msg("%s", o.output);
    shell(&o, "test -e %s/program.db && echo written || echo absent", workdir);
    assert_string_equal(o.output, "absent\n");
}

/* An empty DATA_DIR would put the chart's tables into the root ("" joined to a file name): refused, nothing
 * written. */
static void an_empty_data_dir_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s chart-data --db %s ''", tool(), history);
    assert_int_equal(o.exit_code, 2);
    if (!strstr(o.output, "DATA_DIR: empty path"))
        fail_msg("%s", o.output);
}

/* The tree as a fresh clone has it: memscope-results/history.db does not exist there, and make history draws the
 * committed H100 history instead, from its SQL dump, saying so. The programs are this build's (MEMSCOPE_HISTORY),
 * not rebuilt. */
static void make_history_in_a_fresh_clone_draws_the_committed_history(void **state)
{
    (void)state;
    static struct outcome o;
    char root[512], clone[300], program[600];
    skip_without_gnuplot("make history");
    snprintf(clone, sizeof clone, "%s/clone", workdir);
    fresh_copy(clone, root, sizeof root);
    snprintf(program, sizeof program, "%s%s%s", tool()[0] == '/' ? "" : root, tool()[0] == '/' ? "" : "/", tool());
    /* Standard output alone: that is where make history must say which history it draws. */
    shell(&o,
          "(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS MEMSCOPE_HISTORY=%s make --no-print-directory -C %s "
          "-o build/memscope-history history 2>%s/make.err)",
          program, clone, workdir);
    if (o.exit_code != 0 || !strstr(o.output, "reports/history-h100.sql") ||
        !strstr(o.output, "history: reports/history-h100/history.pdf")) {
        static struct outcome err;
        shell(&err, "cat %s/make.err", workdir);
        fail_msg("make history (%d):\n%s\n%s", o.exit_code, o.output, err.output);
    }
    shell(&o,
          "test -s %s/reports/history-h100/history.pdf && grep -c ' 151e1ce  blocktiled_2d ' "
          "%s/reports/history-h100/steps.txt",
          clone, clone);
    expect(&o, 0, "3\n");
}

/* make report on a GPU records its run in the history database that make report and make history-add name,
 * memscope-results/history.db, when no HISTORY= is given: scripts/report-run, copied beside a report-render that
 * draws nothing, with an nvidia-smi that finds a GPU and a memscope that gives the fixture as its run. Once, it
 * named history.csv, recording the run in a SQLite file of that name that make history never read. */
static void report_run_records_its_run_in_the_history_database(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o,
          "d=%1$s/report-run && mkdir -p $d/scripts $d/build $d/bin && cp scripts/report-run scripts/help.sh $d/scripts/ && "
          "ln -s \"$(realpath %2$s)\" $d/build/memscope-history && fixture=$(realpath %3$s) && "
          "printf '#!/bin/sh\\nexit 0\\n' | tee $d/scripts/report-render >$d/bin/nvidia-smi && "
          "printf '#!/bin/sh\\nwhile [ $# -gt 1 ]; do [ \"$1\" = -o ] && out=$2; shift; done\\n"
          "[ -d \"$out\" ] || cp -r \"%%s\" \"$out\"\\n' \"$fixture\" >$d/build/memscope && "
          "chmod +x $d/scripts/report-render $d/bin/nvidia-smi $d/build/memscope && cd $d && "
          "env -u HISTORY PATH=$d/bin:$PATH MEMSCOPE_BUILD=$d/build scripts/report-run && ls memscope-results && "
          "test ! -e memscope-results/history.csv && build/memscope-history runs --db memscope-results/history.db",
          workdir, tool(), FIXTURE);
    expect(&o, 0, "\nhistory.db\n");
    expect(&o, 0, "60dceee\tNVIDIA H100 80GB HBM3");
}

/* Text of the history goes into gnuplot strings: a line break, a quote or a backslash could end the string and a
 * backquote runs a shell command, so a shared history could run commands when drawn. */
static void text_from_the_history_cannot_run_as_gnuplot(void **state)
{
    (void)state;
    static struct outcome o;
    char path[256], chart[160], ran[160], line[512];
    snprintf(path, sizeof path, "%s/hostile.csv", workdir);
    snprintf(chart, sizeof chart, "%s/hostile-chart", workdir);
    snprintf(ran, sizeof ran, "%s/ran", workdir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "commit,dirty,gpu_name,time_utc,variant,precision,width,samples,median_ms,q1_ms,q3_ms,gflops,"
            "global_load_efficiency_pct,shared_conflicts_exact,dram_gbs\n"
            "c0ffee`touch %s`,0,\"GPU\nsystem('touch %s')\n\"\"`touch %s`\"\" \\\",2026-11-21T09:22:43Z,"
            "naive`touch %s`,fp32,1024,10,0.35,0.34,0.36,6000,82.5,0,24\n",
            ran, ran, ran, ran);
    assert_int_equal(fclose(f), 0);
    shell(&o, "mkdir -p %s && %s migrate --db %s.db %s && %s chart-data --db %s.db %s", chart, tool(), path, path,
          tool(), path, chart);
    if (o.exit_code)
        fail_msg("%s", o.output);
    snprintf(path, sizeof path, "%s/variables.gp", chart);
    f = fopen(path, "r");
    assert_non_null(f);
    char expected[512];
    snprintf(expected, sizeof expected, "gpu_name = \"GPU system('touch %s') ''touch %s'' /\"\n", ran, ran);
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, expected);
    while (fgets(line, sizeof line, f))
        if (strchr(line, '`'))
            fail_msg("a backquote in variables.gp: %s", line);
    fclose(f);
    /* Where gnuplot is installed, loading the file runs nothing. */
    shell(&o, "! command -v gnuplot >/dev/null || gnuplot %s; test ! -e %s", path, ran);
    assert_int_equal(o.exit_code, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(runs_are_recorded_once_each),
        cmocka_unit_test(the_database_may_come_first_but_a_mistyped_folder_is_no_database),
        cmocka_unit_test(a_step_is_marked_where_the_median_moved),
        cmocka_unit_test(a_step_names_its_commit_and_the_counters_that_moved),
        cmocka_unit_test(what_is_no_history_database_is_refused),
        cmocka_unit_test(a_schema_newer_than_the_program_is_refused),
        cmocka_unit_test(a_dump_reads_back_as_the_history_it_was),
        cmocka_unit_test(a_dump_cut_short_is_refused),
        cmocka_unit_test(a_csv_history_migrates_and_exports_back_unchanged),
        cmocka_unit_test(text_from_the_history_cannot_run_as_gnuplot),
        cmocka_unit_test(a_width_the_history_lacks_is_refused_naming_those_it_has),
        cmocka_unit_test(an_unknown_command_is_named),
        cmocka_unit_test(a_programs_profile_is_refused),
        cmocka_unit_test(an_empty_data_dir_is_refused),
        cmocka_unit_test(a_directory_given_as_the_database_is_called_one),
        cmocka_unit_test(an_empty_file_is_written_only_by_a_command_that_writes),
        cmocka_unit_test(migrating_a_bad_csv_leaves_no_database),
        cmocka_unit_test(make_history_in_a_fresh_clone_draws_the_committed_history),
        cmocka_unit_test(report_run_records_its_run_in_the_history_database),
    };
    return cmocka_run_group_tests_name("history", tests, setup, teardown);
}
