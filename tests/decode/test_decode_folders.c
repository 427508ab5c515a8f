/*
 * memscope-decode given what it cannot decode: a results folder without captures is told apart by what the run
 * recorded (it collected no metrics, or it did and its captures were not kept), and a refusal writes nothing to
 * standard output, where a header line would start a CSV that looks real.
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
#include "../support/run_shell.h"

#define REFERENCE "reports/reference"
#define OLDER_RUN "tests/fixtures/report-run" /* metrics, from before the source group */

static char workdir[] = "/tmp/memscope-decode-folders-XXXXXX";

static const char *decode_bin(void)
{
    const char *bin = getenv("MEMSCOPE_DECODE_BIN");
    return bin ? bin : "build/memscope-decode";
}

static void expect_refused(const char *arguments, const char *message)
{
    static struct outcome o;
    shell(&o, "%s %s", decode_bin(), arguments);
    if (o.exit_code != 2 || !strstr(o.output, message))
        fail_msg("expected exit 2 and \"%s\"; got %d:\n%s", message, o.exit_code, o.output);
}

/* The committed reference run had every metric group; its folder was committed without captures/. */
static void a_run_whose_captures_were_not_kept_is_told_so(void **state)
{
    (void)state;
    expect_refused(REFERENCE, REFERENCE ": nothing to decode: the run collected hardware metrics (its metrics.csv "
                              "is here), but its captures (captures/*.capture");
    expect_refused("--lines " REFERENCE, REFERENCE ": nothing to decode: the run collected the source group (its "
                                         "lines.csv is here), but its captures (captures/*.source");
    expect_refused("--lines " OLDER_RUN, OLDER_RUN ": nothing to decode: the run did not collect the source group");
}

static void a_run_without_metrics_is_told_so(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "cp -r %s %s/run && rm %s/run/metrics.csv", OLDER_RUN, workdir, workdir);
    assert_int_equal(o.exit_code, 0);
    char arguments[128];
    snprintf(arguments, sizeof arguments, "%s/run", workdir);
    expect_refused(arguments, "nothing to decode: the run did not collect hardware metrics (no metrics.csv: a run "
                              "with --no-metrics");
}

/* Standard output redirected to a file, as in `memscope-decode FILE > x.csv`: a refusal leaves it empty. */
static void a_refusal_writes_nothing_to_standard_output(void **state)
{
    (void)state;
    static struct outcome o;
    const char *not_captures[] = {"tests/fixtures/ncu-tiled_transposed-W1024.csv",
                                  "--lines tests/fixtures/report-run/summary.csv",
                                  "tests/fixtures/tiled_transposed-W1024.capture tests/fixtures/report-run/summary.csv"};
    for (size_t i = 0; i < sizeof not_captures / sizeof *not_captures; ++i) {
        shell(&o, "(%s %s >%s/x.csv)", decode_bin(), not_captures[i], workdir); /* stderr apart */
        assert_int_equal(o.exit_code, 2);
        shell(&o, "wc -c <%s/x.csv", workdir);
        if (atoi(o.output) != 0)
            fail_msg("memscope-decode %s wrote %d bytes to standard output before refusing", not_captures[i],
                     atoi(o.output));
    }
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
        cmocka_unit_test(a_run_whose_captures_were_not_kept_is_told_so),
        cmocka_unit_test(a_run_without_metrics_is_told_so),
        cmocka_unit_test(a_refusal_writes_nothing_to_standard_output),
    };
    return cmocka_run_group_tests_name("decode_folders", tests, setup, teardown);
}
