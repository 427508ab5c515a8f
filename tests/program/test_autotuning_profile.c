/*
 * A real profile of a program that autotunes, read by kernel (tests/fixtures/profile-autotune-h200: memscope-profile
 * --metric-groups global,sol over tests/inject/program_autotune.py as it was at 72c94d9, a Triton kernel under
 * @triton.autotune and a torch.compile'd layer norm and GELU called 7 times each, on an H200, 2026-11-29; cold/ with
 * Inductor's cache empty, warm/ run next with it full; their summary, samples, metrics and environment files).
 * The program made 2,789 launches (environment.csv's kernel_launches), 20 of them its own: scale_kernel's 7, the
 * layer norm's 7, torch.randn's 2 and the check's 4 (x * 2.0, then torch.equal). The other 2,769 are
 * @triton.autotune's timing of scale_kernel's two candidates, flushes and all.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#define FIXTURE "tests/fixtures/profile-autotune-h200/cold"
#include "../support/page_data.h"

static void the_title_page_counts_the_timing_apart(void **state)
{
    (void)state;
    write_data(FIXTURE);
    file_holds("title.tsv", "\nautotuning\t2769 launches in 1 runs, ");
    file_holds("title.tsv", "\nlaunches\t2789 launches per run, 7 kernels;");
}

/* The L2 flush is none of the program's kernels, and scale_kernel's metrics are of a candidate's first run. */
static void the_kernels_are_the_programs_own_launches(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *page = data_file("kernels-1.tsv");
    expect_in(page, "\tscale_kernel\t7\t");
    expect_in(page, "\ttriton_per_fused_gelu_mul_native_layer_norm_0\t7\t");
    expect_in(page, "\tan autotuner's candidate run: first finding ");
    file_lacks("kernels-1.tsv", "FillFunctor<int>");
}

/* Cold against warm: every kernel launched as often a run on both sides, none judged on the timing's launches, and
 * scale_kernel's 7 launches paired one to one, numbered among the program's own: they are jobs #1538 to #1544 of the
 * cold side and #1135 to #1141 of the warm, after its candidates' timing (@triton.autotune times in every process). */
static void cold_and_warm_compare_kernel_by_kernel(void **state)
{
    (void)state;
    static struct outcome o;
    const char *compare = getenv("MEMSCOPE_COMPARE");
    shell(&o, "%s " FIXTURE " tests/fixtures/profile-autotune-h200/warm", compare ? compare : "build/memscope-compare");
    const char *scale = strstr(o.output, "\nscale_kernel ");
    if (o.exit_code != 0 || strstr(o.output, "launches a run in base") || strstr(o.output, "FillFunctor<int>") ||
        !scale || !strstr(scale, "; 7 launches paired\n"))
        fail_msg("expected exit 0, scale_kernel compared on its 7 launches a side, the flush not at all; got %d:\n%s",
                 o.exit_code, o.output);
}

/* A profile whose every launch was an autotuner's (a script that only times candidates): the cold profile without
 * the program's 20 launches. Its title names no busiest kernel, and two such profiles compared exit 2: a gate that
 * compared nothing does not pass. */
static void a_profile_of_timing_alone_names_no_kernel_and_compares_nothing(void **state)
{
    (void)state;
    static struct outcome o;
    copy_fixture_and("python3 -c 'import csv, sys\n"
                     "d = sys.argv[1]\n"
                     "own = lambda job: not (\"FillFunctor<int>\" in job or "
                     "(job.startswith(\"scale_kernel #\") and int(job.split(\"#\")[1]) < 1538))\n"
                     "for name in (\"summary.csv\", \"samples.csv\", \"metrics.csv\"):\n"
                     "    rows = list(csv.reader(open(d + \"/\" + name)))\n"
                     "    rows = rows[:1] + [r for r in rows[1:] if not own(r[0])]\n"
                     "    csv.writer(open(d + \"/\" + name, \"w\", newline=\"\"), lineterminator=\"\\n\")"
                     ".writerows(rows)' $R");
    write_data(scratch);
    file_holds("title.tsv", "\nbusiest\tnone: the program launched no kernel of its own (autotuning, below)\n");
    file_holds("title.tsv", "\nautotuning\t2769 launches in 1 runs, ");
    const char *compare = getenv("MEMSCOPE_COMPARE");
    shell(&o, "%s %s %s", compare ? compare : "build/memscope-compare", scratch, scratch);
    if (o.exit_code != 2 || !strstr(o.output, "no kernel launched by the program itself on either side"))
        fail_msg("expected exit 2, nothing to compare; got %d:\n%s", o.exit_code, o.output);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_title_page_counts_the_timing_apart),
        cmocka_unit_test(the_kernels_are_the_programs_own_launches),
        cmocka_unit_test(cold_and_warm_compare_kernel_by_kernel),
        cmocka_unit_test(a_profile_of_timing_alone_names_no_kernel_and_compares_nothing),
    };
    return cmocka_run_group_tests_name("a real profile of a program that autotunes", tests, setup, teardown);
}
