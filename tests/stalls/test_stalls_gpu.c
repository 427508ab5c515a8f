/*
 * The stalls group on a GPU, through the memscope binary (MEMSCOPE_BIN): stall sampling runs before the range
 * profiler, which then profiles the operands the sampling kept (made again from their seeds where they do not all
 * fit, run/profile_width.h; these widths fit), and none of that may change a count. Skips where no GPU can be used.
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

#include "../support/gpu_present.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"

#define WITHOUT_STALLS "global,shared,dram,roofline,cache,sol"

static char workdir[] = "/tmp/memscope-stalls-XXXXXX";

static const char *binary(void)
{
    const char *path = getenv("MEMSCOPE_BIN");
    return path ? path : "build/memscope";
}

/* groups NULL: the default set, which has the stalls group. */
static void run(const char *groups, const char *out)
{
    static struct outcome o;
    shell(&o, "%s -v tiled_transposed,naive_uncoalesced -s 64,96 --min-samples 3 --max-samples 3 %s%s -o %s/%s",
          binary(), groups ? "--metric-groups " : "", groups ? groups : "", workdir, out);
    if (o.exit_code != 0)
        fail_msg("memscope --metric-groups %s exited %d:\n%s", groups ? groups : "(default)", o.exit_code, o.output);
}

/* The counts that cannot move between runs (deterministic metrics: instruction, sector and wavefront counts). */
static void deterministic_rows(const char *out, const char *into)
{
    static struct outcome o;
    shell(&o, "grep -E ',(smsp__sass_(inst_executed_op|l1tex_t_sectors|l1tex_data_pipe)[a-z_]*\\.sum|"
              "smsp__sass_thread_inst_executed_op_ffma_pred_on\\.sum),' %s/%s/metrics.csv | sort > %s/%s",
          workdir, out, workdir, into);
    assert_int_equal(o.exit_code, 0);
}

static void sampling_first_changes_no_count(void **state)
{
    (void)state;
    static struct outcome o;
    if (!gpu_present())
        skip();
    run(NULL, "with");
    run(WITHOUT_STALLS, "without");
    deterministic_rows("with", "with.rows");
    deterministic_rows("without", "without.rows");
    shell(&o, "test $(wc -l < %s/with.rows) -ge 20 && cmp %s/with.rows %s/without.rows", workdir, workdir, workdir);
    if (o.exit_code != 0)
        fail_msg("the deterministic counts differ with the stalls group, or are missing:\n%s", o.output);
}

static void every_call_has_stall_samples_on_its_lines(void **state)
{
    (void)state;
    static struct outcome o;
    if (!gpu_present())
        skip();
    run(NULL, "lines");
    /* both variants at both widths sampled, on lines of their own source file (the kernel's name, between,
     * holds commas of its own) */
    const char *expected[] = {"naive_uncoalesced,fp32,64,.*,kernels/lessons/matmul_naive.cu,",
                              "naive_uncoalesced,fp32,96,.*,kernels/lessons/matmul_naive.cu,",
                              "tiled_transposed,fp32,64,.*,kernels/lessons/matmul_transposed.cu,",
                              "tiled_transposed,fp32,96,.*,kernels/lessons/matmul_transposed.cu,"};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
        shell(&o, "grep -q '^%s' %s/lines/stalls.csv", expected[i], workdir);
        if (o.exit_code != 0)
            fail_msg("stalls.csv has no row matching ^%s", expected[i]);
    }
    shell(&o, "grep -c '^stalls_group,on$' %s/lines/environment.csv", workdir);
    assert_string_equal(o.output, "1\n");
}

static void the_group_alone_samples_and_profiles_nothing(void **state)
{
    (void)state;
    static struct outcome o;
    if (!gpu_present())
        skip();
    run("stalls", "alone");
    shell(&o, "test -s %s/alone/stalls.csv && test ! -e %s/alone/metrics.csv", workdir, workdir);
    assert_int_equal(o.exit_code, 0);
}

static int make_workdir(void **state)
{
    (void)state;
    return mkdtemp(workdir) ? 0 : -1;
}

static int remove_workdir(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sampling_first_changes_no_count),
        cmocka_unit_test(every_call_has_stall_samples_on_its_lines),
        cmocka_unit_test(the_group_alone_samples_and_profiles_nothing),
    };
    return cmocka_run_group_tests_name("stalls on a GPU", tests, make_workdir, remove_workdir);
}
