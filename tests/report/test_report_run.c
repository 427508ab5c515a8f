/*
 * scripts/report-run, what `make report` does, as it runs the suite on a machine with a GPU: here a stand-in
 * nvidia-smi says there is one, and a stand-in memscope writes down the options it was given and fails as a run
 * with no GPU would (exit 3), so that report-run stops there. Run from a scratch folder: report-run writes
 * memscope-results/ where it is started.
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

#include "../support/remove_tree.h"
#include "../support/run_shell.h"

static char workdir[] = "/tmp/memscope-report-run-XXXXXX";

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

/* The suite is traced, so that the report has its timeline page; the user's options follow. */
static void make_report_runs_the_suite_traced(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "W=%s && mkdir -p $W/bin $W/build && printf '#!/bin/sh\\nexit 0\\n' >$W/bin/nvidia-smi && "
              "printf '#!/bin/sh\\necho \"$*\" >%s/options\\nexit 3\\n' >$W/build/memscope && "
              "chmod +x $W/bin/nvidia-smi $W/build/memscope && root=$(pwd) && cd $W && "
              "PATH=$W/bin:$PATH MEMSCOPE_BUILD=$W/build $root/scripts/report-run -v naive -s 512; echo \"exit $?\"; "
              "cat $W/options",
          workdir, workdir);
    if (!strstr(o.output, "exit 3\n") || !strstr(o.output, " --trace --metric-groups all -v naive -s 512\n"))
        fail_msg("expected memscope's exit 3 and its options with --trace, got:\n%s", o.output);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(make_report_runs_the_suite_traced),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
