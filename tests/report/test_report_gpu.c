/*
 * `make report` as a newcomer runs it on a machine with a GPU: in a fresh
 * copy of the working tree, where neither build/ nor memscope-results/ exists yet, it builds,
 * runs the suite and the ground-truth check, and renders the PDF. A small
 * run (two variants at one width) keeps it short. Skipped, never passed,
 * without a GPU, outside a git checkout, or without gnuplot.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../support/fresh_copy.h"
#include "../support/gpu_present.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"

static char workdir[] = "/tmp/memscope-report-gpu-XXXXXX";

static void expect(const struct outcome *o, int code, const char *text)
{
    if (o->exit_code != code || (text && !strstr(o->output, text)))
        fail_msg("expected exit %d and \"%s\"; got %d:\n%s", code, text ? text : "", o->exit_code, o->output);
}

static void make_report_runs_and_renders_in_a_fresh_clone(void **state)
{
    (void)state;
    static struct outcome o;
    char root[512], clone[300];
    if (!gpu_present()) {
        print_message("no GPU: make report renders the reference run there (tests/report/test_report.c)\n");
        skip();
    }
    skip_without_gnuplot("make report");
    snprintf(clone, sizeof clone, "%s/clone", workdir);
    fresh_copy(clone, root, sizeof root);
    /* The make variables and the programs' paths of the test run are not the copy's: a newcomer sets none. CMOCKA
     * stays: it says where this machine, which can install nothing, has its packages unpacked. The log's lines that
     * say what happened, should make fail: memscope's, the scripts' and make's. */
    shell(&o, "cd %s && env -u MAKEFLAGS -u MAKELEVEL -u GIT_COMMIT -u GIT_DIRTY -u MEMSCOPE_BIN "
              "-u MEMSCOPE_REPORT_DATA -u MEMSCOPE_COMPARE -u MEMSCOPE_HISTORY -u MEMSCOPE_DECODE_BIN "
              "make -j8 report RUN_ARGS='-v naive,tiled_32 -s 256' >%s/make.log 2>&1; rc=$?; "
              "grep -vE '^(gcc|g\\+\\+|/usr/local/cuda/bin/nvcc|nvcc) ' %s/make.log | tail -n 30; exit $rc",
          clone, workdir, workdir);
    expect(&o, 0, "report: reports/");
    shell(&o, "cd %s && ls memscope-results/*/summary.csv memscope-results/*/validate/validate.csv "
              "reports/*-report/memscope-report.pdf",
          clone);
    expect(&o, 0, "memscope-report.pdf");
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(workdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(make_report_runs_and_renders_in_a_fresh_clone),
    };
    return cmocka_run_group_tests_name("report_gpu", tests, setup, teardown);
}
