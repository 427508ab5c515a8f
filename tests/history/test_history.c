/*
 * memscope-history: runs recorded once each, in order, and a step change
 * marked where a variant's median moved beyond the floor. Fixture runs are
 * cut from the H100 reference run; the binary comes from MEMSCOPE_HISTORY.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../support/rewrite_csv.h"
#include "../support/fresh_copy.h"
#include "../support/run_shell.h"

#define FIXTURE "tests/fixtures/report-run"

static char workdir[] = "/tmp/memscope-history-XXXXXX";
static char history[128], later[128];

static const char *tool(void)
{
    const char *path = getenv("MEMSCOPE_HISTORY");
    return path ? path : "build/memscope-history";
}

/* The summary of a later run: tiled_transposed 6 % slower (median and quartiles). */
static void slow_down_tiled_transposed(const struct csv_table *t, int row, char **fields)
{
    (void)row;
    if (strcmp(fields[0], "tiled_transposed"))
        return;
    for (int c = 0; c < t->columns; ++c)
        if (!strcmp(t->header[c], "median_ms") || !strcmp(t->header[c], "q1_ms") || !strcmp(t->header[c], "q3_ms"))
            snprintf(fields[c], 256, "%.10g", atof(fields[c]) * 1.06);
}

static int setup(void **state)
{
    (void)state;
    static struct outcome o;
    if (!mkdtemp(workdir))
        return -1;
    snprintf(history, sizeof history, "%s/history.csv", workdir);
    snprintf(later, sizeof later, "%s/later", workdir);
    shell(&o, "cp -r %s %s && sed -i 's/^git_commit,.*/git_commit,1234567abc/; s/^time_utc,.*/time_utc,2026-12-01T00:00:00Z/' "
              "%s/environment.csv",
          FIXTURE, later, later);
    if (o.exit_code)
        return -1;
    rewrite_csv(later, "summary.csv", slow_down_tiled_transposed);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

static void runs_are_recorded_once_each(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s add %s %s", tool(), history, FIXTURE);
    assert_int_equal(o.exit_code, 0);
    shell(&o, "%s add %s %s", tool(), history, FIXTURE);
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "recorded already"));
    shell(&o, "%s add %s %s", tool(), history, later);
    assert_int_equal(o.exit_code, 0);
    shell(&o, "cut -d, -f1 %s | uniq | tr '\\n' ' '", history);
    assert_string_equal(o.output, "commit 60dceeeabb15aa26c1aa7f8f3bd7cc75b0453d3b 1234567abc ");
}

static void a_step_is_marked_where_the_median_moved(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "mkdir -p %s/chart && %s chart-data %s %s/chart", workdir, tool(), history, workdir);
    if (o.exit_code)
        fail_msg("%s", o.output);
    /* Blocks are variants in run order; column 8 is the step mark, 9 its label. */
    shell(&o, "awk -F'\\t' '$8 == 1 {print prev, $1, $9} /^# / {prev = substr($0, 3)}' %s/chart/history.tsv", workdir);
    assert_string_equal(o.output, "tiled_transposed 1 +6.0%\n");
    shell(&o, "grep -c 'set xtics' %s/chart/variables.gp && grep -o '\"1234567\" 1' %s/chart/variables.gp", workdir,
          workdir);
    assert_int_equal(o.exit_code, 0);
}

static void a_file_that_is_no_history_is_refused(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s chart-data %s/summary.csv %s", tool(), FIXTURE, workdir);
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "summary.csv:1: not a memscope history"));
}

/* A width no recorded run measured would chart nothing but NaN, on which gnuplot fails: refused at once, naming
 * the widths there are. */
static void a_width_the_history_lacks_is_refused_naming_those_it_has(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "mkdir -p %s/absent && %s chart-data --width 12345 %s %s/absent", workdir, tool(), history, workdir);
    assert_int_equal(o.exit_code, 2);
    if (!strstr(o.output, "--width 12345: no run") || !strstr(o.output, "widths recorded: 1024, 2048"))
        fail_msg("%s", o.output);
    shell(&o, "ls %s/absent | wc -l", workdir);
    assert_string_equal(o.output, "0\n");
}

/* The tree as a fresh clone has it: memscope-results/history.csv does not exist there, and make history draws the
 * committed H100 history instead, saying so. The programs are this build's (MEMSCOPE_HISTORY), not rebuilt. */
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
    shell(&o, "(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS MEMSCOPE_HISTORY=%s make --no-print-directory -C %s "
              "-o build/memscope-history history 2>%s/make.err)",
          program, clone, workdir);
    if (o.exit_code != 0 || !strstr(o.output, "reports/history-h100.csv") ||
        !strstr(o.output, "history: reports/history-h100/history.pdf")) {
        static struct outcome err;
        shell(&err, "cat %s/make.err", workdir);
        fail_msg("make history (%d):\n%s\n%s", o.exit_code, o.output, err.output);
    }
    shell(&o, "test -s %s/reports/history-h100/history.pdf", clone);
    assert_int_equal(o.exit_code, 0);
}

/* Text of the history goes into gnuplot strings: a line break, a quote or a backslash could end the string and a
 * backquote runs a shell command, so a shared history file could run commands when drawn. */
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
    fprintf(f, "commit,dirty,gpu_name,time_utc,variant,precision,width,samples,median_ms,q1_ms,q3_ms,gflops,"
               "global_load_efficiency_pct,shared_conflicts_exact,dram_gbs\n"
               "c0ffee`touch %s`,0,\"GPU\nsystem('touch %s')\n\"\"`touch %s`\"\" \\\",2026-11-21T09:22:43Z,"
               "naive`touch %s`,fp32,1024,10,0.35,0.34,0.36,6000,82.5,0,24\n",
               ran, ran, ran, ran);
    assert_int_equal(fclose(f), 0);
    shell(&o, "mkdir -p %s && %s chart-data %s %s", chart, tool(), path, chart);
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
        cmocka_unit_test(a_step_is_marked_where_the_median_moved),
        cmocka_unit_test(a_file_that_is_no_history_is_refused),
        cmocka_unit_test(text_from_the_history_cannot_run_as_gnuplot),
        cmocka_unit_test(a_width_the_history_lacks_is_refused_naming_those_it_has),
        cmocka_unit_test(make_history_in_a_fresh_clone_draws_the_committed_history),
    };
    return cmocka_run_group_tests_name("history", tests, setup, teardown);
}
