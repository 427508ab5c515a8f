/*
 * The stalls group on a GPU, through the memscope binary (MEMSCOPE_BIN): stall sampling runs before the range
 * profiler, which then profiles the operands the sampling kept, or made again from their seeds where they do not
 * all fit (run/profile_width.h), and none of that may change a count. The second case runs beside
 * program_hold_memory, which leaves the run too little memory to keep them. Skips where no GPU can be used.
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

#include "../support/build_dir.h"
#include "../support/gpu_present.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"

#define WITHOUT_STALLS "global,shared,dram,roofline,cache,sol,tensor,causes" /* the default (harness/run/cli.c) less stalls */

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
    shell(&o, "grep -c '^sampled_operands,kept$' %s/with/environment.csv", workdir);
    assert_string_equal(o.output, "1\n");
}

/* A width's variants keep their operands until the width is profiled (3 W^2 floats each; the reference needs
 * 3 W^2 doubles more on the GPU above W = 512), and memscope leaves 256 MiB spare. At W = 8192 that needs 3840 MiB
 * (two variants' 768 and the last one's 2304); keeping W = 6144's too (3 x 432) until the profiling, 5136. The
 * holder leaves 5300 MiB, of which the run's own context takes some (about 790 MiB on an H100): one width fits, both
 * do not. */
#define LARGE_JOBS "-v cublas,split_k,spread_copies -s 6144,8192 --min-samples 3 --max-samples 3"

static void operands_made_again_change_no_count(void **state)
{
    (void)state;
    static struct outcome o;
    if (!gpu_present())
        skip();
    shell(&o, "{ %s/tests/stalls/program_hold_memory 5300 > %s/held.txt & holder=$!; "
              "for i in $(seq 600); do grep -q held %s/held.txt && break; kill -0 $holder || break; sleep 0.1; done; "
              "grep -q held %s/held.txt || { cat %s/held.txt; kill $holder; exit 99; }; "
              "%s " LARGE_JOBS " --metric-groups stalls,global -o %s/pressed; status=$?; "
              "kill $holder; wait $holder; exit $status; }",
          build_dir(), workdir, workdir, workdir, workdir, binary(), workdir);
    if (o.exit_code != 0)
        fail_msg("memscope beside the memory holder exited %d:\n%s", o.exit_code, o.output);
    shell(&o, "grep -c '^sampled_operands,made again$' %s/pressed/environment.csv", workdir);
    if (strcmp(o.output, "1\n") != 0)
        fail_msg("the run kept its operands: the holder did not leave it too little memory");
    shell(&o, "%s " LARGE_JOBS " --metric-groups global -o %s/free", binary(), workdir);
    if (o.exit_code != 0)
        fail_msg("memscope --metric-groups global exited %d:\n%s", o.exit_code, o.output);
    deterministic_rows("pressed", "pressed.rows");
    deterministic_rows("free", "free.rows");
    shell(&o, "test $(wc -l < %s/pressed.rows) -ge 24 && cmp %s/pressed.rows %s/free.rows", workdir, workdir,
          workdir);
    if (o.exit_code != 0)
        fail_msg("the deterministic counts differ with the operands made again, or are missing:\n%s", o.output);
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
        cmocka_unit_test(operands_made_again_change_no_count),
        cmocka_unit_test(every_call_has_stall_samples_on_its_lines),
        cmocka_unit_test(the_group_alone_samples_and_profiles_nothing),
    };
    return cmocka_run_group_tests_name("stalls on a GPU", tests, make_workdir, remove_workdir);
}
