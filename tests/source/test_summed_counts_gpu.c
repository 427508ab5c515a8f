/*
 * The shared counts a run with the source group sums from its instructions (harness/profile/summed_counts.h) on a
 * GPU, through the memscope binary: each equals, row for row, what the metric passes count when they patch for it
 * themselves (a run without the source group), for kernels of shared loads and stores of every width, conflicts,
 * cp.async's LDGSTS, ldmatrix, TMA and a library's; and memscope-decode gives the run's metrics.csv back from its
 * captures. Skips where no GPU can be used.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "../support/build_dir.h"
#include "../support/gpu_present.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"

#define VARIANTS "tiled_transposed,vectorized,pipelined,split_k,cp_async,ldmatrix,tma_store,cublas,cublas_bf16"
/* The four summed counts' rows (summed_counts.h), sorted */
#define SUMMED_ROWS                                                                                                    \
    "grep -E "                                                                                                         \
    "',smsp__sass_(l1tex_data_pipe_lsu_wavefronts_mem_shared_op_(ld|st)|inst_executed_op_shared_(ld|st))\\.sum,'"

static char workdir[] = "/tmp/memscope-summed-XXXXXX";

static void run(const char *groups, const char *out)
{
    static struct outcome o;
    shell(&o, "%s/memscope -v " VARIANTS " -s 256,512 --min-samples 2 --max-samples 2 --metric-groups %s -o %s/%s",
          build_dir(), groups, workdir, out);
    if (o.exit_code != 0)
        fail_msg("memscope --metric-groups %s exited %d:\n%s", groups, o.exit_code, o.output);
}

static void summed_counts_equal_the_metric_passes(void **state)
{
    (void)state;
    static struct outcome o;
    if (!gpu_present())
        skip();
    run("shared,source", "summed");
    run("shared", "patched");
    shell(&o,
          "grep -c ^metric_count, %s/summed/environment.csv %s/patched/environment.csv && "
          "test $(grep ^metric_count, %s/summed/environment.csv | cut -d, -f2) -eq "
          "$(($(grep ^metric_count, %s/patched/environment.csv | cut -d, -f2) - 4))",
          workdir, workdir, workdir, workdir);
    if (o.exit_code != 0)
        fail_msg("the metric passes of the run with the source group did not leave the 4 counts out:\n%s", o.output);
    shell(&o, "grep -x summed_counts,4 %s/summed/environment.csv && grep -x summed_counts,0 %s/patched/environment.csv",
          workdir, workdir);
    if (o.exit_code != 0)
        fail_msg("environment.csv does not say how many counts were summed:\n%s", o.output);
    for (int i = 0; i < 2; ++i) {
        const char *out = i ? "patched" : "summed";
        shell(&o, SUMMED_ROWS " %s/%s/metrics.csv | sort > %s/%s.rows", workdir, out, workdir, out);
        assert_int_equal(o.exit_code, 0);
    }
    /* 9 variants x 2 sizes, at least one kernel each, 4 counts */
    shell(&o, "test $(wc -l < %s/summed.rows) -ge 72 && diff %s/patched.rows %s/summed.rows", workdir, workdir,
          workdir);
    if (o.exit_code != 0)
        fail_msg("the summed counts differ from the patched ones, or are missing:\n%s", o.output);
    shell(&o, "grep -c ',smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,[1-9]' %s/summed.rows",
          workdir);
    if (o.exit_code != 0 || atoi(o.output) < 8)
        fail_msg("fewer kernels with shared load wavefronts than the 4 variants of LDS (tiled_transposed, vectorized, "
                 "pipelined, split_k) at 2 sizes:\n%s",
                 o.output);
}

static void decode_gives_the_summed_counts_back(void **state)
{
    (void)state;
    static struct outcome o;
    if (!gpu_present())
        skip();
    shell(&o, "test -d %s/summed", workdir);
    if (o.exit_code != 0) /* run alone */
        run("shared,source", "summed");
    shell(&o,
          "%s/memscope-decode -o %s/decoded.csv %s/summed && sort %s/summed/metrics.csv > %s/run.sorted && "
          "sort %s/decoded.csv > %s/decoded.sorted && diff %s/run.sorted %s/decoded.sorted",
          build_dir(), workdir, workdir, workdir, workdir, workdir, workdir, workdir, workdir);
    if (o.exit_code != 0)
        fail_msg("memscope-decode did not give the run's metrics.csv back:\n%s", o.output);
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
        cmocka_unit_test(summed_counts_equal_the_metric_passes),
        cmocka_unit_test(decode_gives_the_summed_counts_back),
    };
    return cmocka_run_group_tests_name("summed counts on a GPU", tests, make_workdir, remove_workdir);
}
