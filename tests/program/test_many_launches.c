/*
 * A program at the scale of a training script, without a GPU (issue 48): tests/program/make_profile_parts.py writes
 * what the injection library leaves of 8 ranks that launched 100,000 kernels (12,500 each) of 1,000 kernels, one
 * launch in fifty an NCCL all-reduce that rank R reaches R x 10 us after rank 0, the first launch of each kernel in
 * each rank profiled with a real launch's metrics; memscope-profile runs it as the program and merges the parts as
 * it merges a real one's. The profile is read by kernel, with no cap: kernels.csv holds the 1,001 kernels, the report's
 * tables rank them (56 shown, the rest said), the ranks pages name rank 7 as the straggler of every all-reduce, the
 * profile compares with itself with no SLOWER or FASTER, and it renders (gnuplot and poppler-utils; skipped where
 * missing). Its time and memory on CI's machine are a benchmark, in docs/profile.md, not checked here.
 */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../support/build_dir.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"

static char workdir[] = "/tmp/memscope-many-launches-XXXXXX";
static char profile[PATH_MAX], data[PATH_MAX];
static char build[PATH_MAX], generator[PATH_MAX];

static void expect_in(const char *text, const char *piece)
{
    if (!strstr(text, piece))
        fail_msg("expected \"%s\" in:\n%.4000s", piece, text);
}

/* The profile and its report's tables, made once for every test of the group. */
static int setup(void **state)
{
    (void)state;
    static struct outcome o;
    if (!mkdtemp(workdir) || !realpath(build_dir(), build) ||
        !realpath("tests/program/make_profile_parts.py", generator))
        return -1;
    snprintf(profile, sizeof profile, "%s/profile", workdir);
    snprintf(data, sizeof data, "%s/data", workdir);
    shell(&o, "cd %s && %s/memscope-profile --metric-groups none -o %s -- sh -c 'python3 %s \"$MEMSCOPE_PROFILE_DIR\" "
              "8 100000 1000' && mkdir %s && %s/memscope-report-data %s %s",
          workdir, build, profile, generator, data, build, profile, data);
    if (o.exit_code != 0)
        fprintf(stderr, "the profile could not be made (%d):\n%s\n", o.exit_code, o.output);
    return o.exit_code;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

static const char *file(const char *folder, const char *name)
{
    static struct outcome o;
    shell(&o, "cat %s/%s", folder, name);
    assert_int_equal(o.exit_code, 0);
    return o.output;
}

/* Every launch counted, none lost: 1,000 kernels of 98,000 launches and the all-reduce's 2,000, 250 a rank. */
static void kernels_csv_holds_every_kernel_and_launch(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "python3 -c 'import csv, sys; k = list(csv.DictReader(open(sys.argv[1]))); print(len(k)); "
              "print(sum(int(r[\"launches\"]) for r in k))' %s/kernels.csv", profile);
    assert_string_equal(o.output, "1001\n100000\n");
    expect_in(file(profile, "kernels.csv"), "\nncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>),"
                                            ",2000,");
}

/* Four pages of the busiest kernels, then what the other 945 take; no cap refuses the profile. */
static void the_report_ranks_the_kernels_and_says_what_it_leaves_out(void **state)
{
    (void)state;
    const char *pages = file(data, "pages.tsv");
    expect_in(pages, "kernels-4\tkernels.gp\tkernels_page=4\n");
    expect_in(pages, "\nranks\tranks.gp\t\ncollectives\tcollectives.gp\t\n");
    expect_in(file(data, "variables.gp"), "kernels_rest_note = 'The 56 busiest of 1001 kernels: the other 945");
}

/* Rank 7 reaches every all-reduce last (70 us after rank 0): the straggler by arrival, though its all-reduces are the
 * shortest; rank 0 waits the longest. */
static void the_last_rank_to_arrive_is_the_straggler(void **state)
{
    (void)state;
    const char *parts = file(data, "collectives-parts.tsv");
    expect_in(parts, "\nrank 7\t250\t");
    expect_in(parts, "\t250\t0\n"); /* rank 7: arrived last 250 times, no wait from memscope's replays */
    expect_in(file(data, "collectives.tsv"), "\trank 7 (+0.07 ms)\t");
}

static void the_profile_against_itself_has_no_slower_or_faster(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "%s/memscope-compare %s %s | grep '^geometric mean'", build, profile, profile);
    assert_int_equal(o.exit_code, 0);
    expect_in(o.output, " 0 SLOWER, 0 FASTER,");
}

static void it_renders(void **state)
{
    (void)state;
    static struct outcome o;
    if (system("command -v gnuplot >/dev/null && command -v pdfinfo >/dev/null") != 0)
        skip();
    shell(&o, "scripts/report-render %s %s/report && pdfinfo %s/report/memscope-report.pdf | sed -n 's/^Pages: *//p'",
          profile, workdir, workdir);
    if (o.exit_code != 0)
        fail_msg("the report did not render (%d):\n%s", o.exit_code, o.output);
    expect_in(o.output, "\n9\n"); /* title, 4 kernels pages, ranks, collectives, roofline and its key */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_csv_holds_every_kernel_and_launch),
        cmocka_unit_test(the_report_ranks_the_kernels_and_says_what_it_leaves_out),
        cmocka_unit_test(the_last_rank_to_arrive_is_the_straggler),
        cmocka_unit_test(the_profile_against_itself_has_no_slower_or_faster),
        cmocka_unit_test(it_renders),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
