/*
 * A row another process disturbed while it was timed (summary.csv's
 * other_gpu_work) is marked in the report's summary table; NVML's "unknown"
 * and rows nobody disturbed are not. Reads the table memscope-report-data
 * writes for the summary page; needs neither a GPU nor gnuplot.
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

#include "../support/mark_disturbed.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"

#define FIXTURE "tests/fixtures/report-run"

static char workdir[] = "/tmp/memscope-report-disturbed-XXXXXX";

static const char *report_data(void)
{
    const char *path = getenv("MEMSCOPE_REPORT_DATA");
    return path ? path : "build/memscope-report-data";
}

/* The summary table's row of variant at 1024 after marking naive with who. */
static const char *summary_row(const char *who, const char *variant)
{
    static struct outcome o;
    shell(&o, "rm -rf %s/run %s/data && cp -r %s %s/run && mkdir %s/data", workdir, workdir, FIXTURE, workdir, workdir);
    assert_int_equal(o.exit_code, 0);
    char run[300];
    snprintf(run, sizeof run, "%s/run", workdir);
    mark_disturbed(run, "naive", 1024, who);
    shell(&o, "%s %s %s/data >/dev/null && grep -P '^[0-9]+\\t%s\\t' %s/data/summary-1024.tsv", report_data(), run,
          workdir, variant, workdir);
    assert_int_equal(o.exit_code, 0);
    return o.output;
}

static void a_disturbed_row_is_marked(void **state)
{
    (void)state;
    assert_non_null(strstr(summary_row("pid 4242 (python3), SM 99 %", "naive"), "passed, disturbed"));
}

static void an_undisturbed_row_is_not(void **state)
{
    (void)state;
    assert_null(strstr(summary_row("pid 4242 (python3), SM 99 %", "naive_uncoalesced"), "disturbed"));
}

static void nvml_unable_to_tell_is_no_mark(void **state)
{
    (void)state;
    assert_null(strstr(summary_row("unknown: NVML could not be opened", "naive"), "disturbed"));
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
        cmocka_unit_test(a_disturbed_row_is_marked),
        cmocka_unit_test(an_undisturbed_row_is_not),
        cmocka_unit_test(nvml_unable_to_tell_is_no_mark),
    };
    return cmocka_run_group_tests_name("report_disturbed", tests, setup, teardown);
}
