/*
 * The report's tables of a results folder, for the tests of its pages: a work folder holding data/ (the tables
 * memscope-report-data writes) and run/ (a copy of a fixture, changed by a test). The including file defines
 * FIXTURE, the folder the copies are made of, and names setup and teardown in its group.
 */
#ifndef MEMSCOPE_PAGE_DATA_H
#define MEMSCOPE_PAGE_DATA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/report/report_data.h"
#include "remove_tree.h"
#include "run_shell.h"

static char workdir[] = "/tmp/memscope-pages-XXXXXX";
static char data_dir[128], scratch[128];

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(workdir))
        return -1;
    snprintf(data_dir, sizeof data_dir, "%s/data", workdir);
    snprintf(scratch, sizeof scratch, "%s/run", workdir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

/* memscope-report-data on a results folder, into a fresh data_dir, a program's launches grouped as asked. */
static void write_data_by(const char *results, enum kernel_grouping grouping)
{
    static struct outcome o;
    struct results_folder r;
    struct error e = {0};
    shell(&o, "rm -rf %s && mkdir -p %s", data_dir, data_dir);
    assert_int_equal(o.exit_code, 0);
    if (results_folder_open(results, &r, &e) || report_data_write(&r, data_dir, "", NULL, grouping, &e))
        fail_msg("%s", e.message);
    results_folder_close(&r);
}

/* The same as the report draws it by default: a program by kernel. */
static void write_data(const char *results)
{
    write_data_by(results, GROUP_BY_KERNEL);
}

/* A copy of the fixture, changed by a shell command ($R names the copy). */
static inline void copy_fixture_and(const char *change)
{
    static struct outcome o;
    shell(&o, "rm -rf %s && cp -r %s %s && R=%s && %s", scratch, FIXTURE, scratch, scratch, change);
    assert_int_equal(o.exit_code, 0);
}

/* The whole text of the tables a shell pattern names in data_dir, after a newline (so that every line follows one,
 * the first too); the test fails where none was written. The next call overwrites it. */
static inline const char *data_file(const char *name)
{
    static struct outcome o;
    shell(&o, "echo && cat %s/%s", data_dir, name);
    if (o.exit_code != 0)
        fail_msg("%s was not written: %s", name, o.output);
    return o.output;
}

/* Whether a table was written at all. */
static inline int data_written(const char *name)
{
    static struct outcome o;
    shell(&o, "test -e %s/%s", data_dir, name);
    return o.exit_code == 0;
}

static inline void expect_in(const char *text, const char *piece)
{
    if (!strstr(text, piece))
        fail_msg("expected \"%s\" in:\n%s", piece, text);
}

/* Whether a table in data_dir holds a text; the table must exist, so that one never written lacks nothing. */
static inline void file_holds(const char *name, const char *text)
{
    const char *t = data_file(name);
    if (!strstr(t, text))
        fail_msg("%s lacks \"%s\":\n%s", name, text, t);
}

static inline void file_lacks(const char *name, const char *text)
{
    const char *t = data_file(name);
    if (strstr(t, text))
        fail_msg("%s holds \"%s\":\n%s", name, text, t);
}

/* A page drawn by scripts/report-render into rendered (its PNG a shell pattern names) whose cells run into no next
 * column at the positions variables.gp gives as <table>_x (tests/support/png_columns.py reads the pixels); skipped
 * without gnuplot or python3. */
static inline void expect_columns_apart(const char *rendered, const char *table, const char *png)
{
    static struct outcome o;
    if (system("command -v gnuplot >/dev/null && command -v python3 >/dev/null") != 0)
        skip();
    shell(&o, "x=$(sed -n 's/^%s_x = \"\\(.*\\)\"$/\\1/p' %s/data/variables.gp) && test -n \"$x\" && "
              "python3 tests/support/png_columns.py %s/%s \"$x\"",
          table, rendered, rendered, png);
    if (o.exit_code != 0)
        fail_msg("%s, columns of %s:\n%s", png, table, o.output);
}

#endif
