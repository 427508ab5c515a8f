/*
 * The Makefile's own behaviour, where make test cannot see it: a test binary built from nothing must leave its
 * helper objects (tests/support/) in place. make deletes an intermediate file after the build, printing
 * "rm <file>" as the last line of make test's output, below the "total:" line the README promises, and
 * compiles it again (with nvcc) whenever a test binary is relinked.
 *
 * The build runs the real Makefile into a scratch BUILD with compilers that only create their output file:
 * make's decisions are real, nothing is compiled, and it takes about a second.
 *
 * The paths a user gives make report, compare, history and history-add reach the scripts whole, spaces and quotes
 * included: the Makefile, copied beside scripts that print their arguments, is run with such values.
 *
 * And the programs that read results folders and need no GPU (memscope-report-data, memscope-compare,
 * memscope-history) build where no CUDA toolkit is installed: compiled for real, in a few seconds.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../support/run_shell.h"

static char workdir[] = "/tmp/memscope-make-XXXXXX";

/* Stands in for gcc, g++ and nvcc: creates the file named after -o, and answers --version with nothing. */
static const char fake_compiler[] = "#!/bin/sh\n"
                                    "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && : >\"$2\"; shift; done\n"
                                    "exit 0\n";

static void the_test_helpers_outlive_the_build(void **state)
{
    (void)state;
    static struct outcome o;
    char fake[128];
    snprintf(fake, sizeof fake, "%s/fake-compiler", workdir);
    FILE *f = fopen(fake, "w");
    assert_non_null(f);
    fputs(fake_compiler, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(fake, 0755), 0);
    /* test-setup (cmocka, here already) is left out: it installs, and the build needs nothing of it. The outer
     * make's jobserver is not this make's. */
    shell(&o, "env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory -o test-setup BUILD=%s/build CC=%s "
              "CXX=%s NVCC=%s %s/build/tests/common/test_stats",
          workdir, fake, fake, fake, workdir);
    if (o.exit_code != 0)
        fail_msg("make failed (%d):\n%s", o.exit_code, o.output);
    const char *removed = strncmp(o.output, "rm ", 3) == 0 ? o.output : strstr(o.output, "\nrm ");
    if (removed)
        fail_msg("make deleted a file it built:%s", removed);
    shell(&o, "ls %s/build/tests/support/*.o", workdir);
    if (o.exit_code != 0 || !strstr(o.output, "broken_matmul.o"))
        fail_msg("the helper object is gone:\n%s", o.output);
}

static void the_gpu_free_programs_build_without_the_cuda_toolkit(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory -j2 BUILD=%s/no-cuda CUDA=/nonexistent "
              "%s/no-cuda/memscope-report-data %s/no-cuda/memscope-compare %s/no-cuda/memscope-history",
          workdir, workdir, workdir, workdir);
    if (o.exit_code != 0)
        fail_msg("make failed (%d) with CUDA=/nonexistent:\n%s", o.exit_code, o.output);
}

/* Stands in for the scripts and programs the targets call: prints its name, each argument in <>, and $HISTORY. */
static const char print_arguments[] = "#!/bin/sh\n"
                                      "printf '%s' \"$(basename \"$0\")\"; for a; do printf ' <%s>' \"$a\"; done\n"
                                      "printf ' HISTORY=<%s>\\n' \"$HISTORY\"\n";

static void user_paths_reach_the_scripts_whole(void **state)
{
    (void)state;
    static struct outcome o;
    static const struct {
        const char *arguments, *expected;
    } cases[] = {
        {"report RESULTS='a b' COMPARE=\"it's.csv\"",
         "report-render <--compare> <it's.csv> <a b> <reports/a b-report>"},
        {"report HISTORY=\"it's.db\" RUN_ARGS='-v naive'", "report-run <-v> <naive> HISTORY=<it's.db>"},
        {"history HISTORY=\"it's a.db\"", "history-render <it's a.db> <reports/history>"},
        {"history-add RESULTS='a b' HISTORY=\"it's.db\"", "memscope-history <add> <--db> <it's.db> <a b>"},
        {"compare BASE_RESULTS='a b' HEAD_RESULTS=\"c'd\"", "compare-results <a b> <c'd>"},
        {"compare BASE='x y' HEAD=\"z'\" ROUNDS=3", "compare-revisions <--rounds> <3> <x y> <z'>"},
        {"compare BASE=main", "compare-revisions <main> HISTORY"},
    };
    char dir[128];
    snprintf(dir, sizeof dir, "%s/quoting", workdir);
    shell(&o, "mkdir -p %s/scripts %s/stub && cp Makefile %s/ && cat >%s/stub/print <<'EOF'\n%sEOF\n"
              "chmod +x %s/stub/print && for n in report-render report-run compare-results compare-revisions "
              "history-render setup memscope-history memscope-compare; do ln -s ../stub/print %s/scripts/$n; done",
          dir, dir, dir, dir, print_arguments, dir, dir);
    assert_int_equal(o.exit_code, 0);
    int wrong = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        /* The targets' prerequisites are left out (-o), and the sub-make that builds on every core with them: nothing
         * is built or installed; BUILD is the stubs' folder. */
        shell(&o, "env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory -C %s -o all -o report-setup "
                  "-o scripts/memscope-history -o scripts/memscope-compare -o scripts/memscope-report-data BUILD=scripts "
                  "SUB_MAKE=: %s",
              dir, cases[i].arguments);
        if (o.exit_code != 0 || strncmp(o.output, cases[i].expected, strlen(cases[i].expected)) != 0) {
            print_message("make %s: expected \"%s...\"; got %d:\n%s\n", cases[i].arguments, cases[i].expected,
                          o.exit_code, o.output);
            ++wrong;
        }
    }
    assert_int_equal(wrong, 0);
}

/* make report and make test build on every core unless make was given -j: their sub-make's JOBS, seen from a target
 * the test adds. */
static void the_readmes_commands_build_on_every_core_unless_told(void **state)
{
    (void)state;
    static struct outcome o;
    const char *show = "env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory %s "
                       "--eval 'show-jobs: ; @echo \"jobs<$(JOBS)>\"' show-jobs";
    char expected[64];
    shell(&o, "nproc");
    snprintf(expected, sizeof expected, "jobs<-j%d>", atoi(o.output));
    shell(&o, show, "");
    assert_int_equal(o.exit_code, 0);
    assert_non_null(strstr(o.output, expected));
    shell(&o, show, "-j1");
    assert_non_null(strstr(o.output, "jobs<>"));
    shell(&o, show, "-j3");
    assert_non_null(strstr(o.output, "jobs<>"));
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
        cmocka_unit_test(the_test_helpers_outlive_the_build),
        cmocka_unit_test(the_gpu_free_programs_build_without_the_cuda_toolkit),
        cmocka_unit_test(user_paths_reach_the_scripts_whole),
        cmocka_unit_test(the_readmes_commands_build_on_every_core_unless_told),
    };
    return cmocka_run_group_tests_name("make", tests, setup, teardown);
}
