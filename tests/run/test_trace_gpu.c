/*
 * memscope --trace on the GPU: the trace's kernels against the run's own
 * timing. scripts/trace-check --durations holds each variant's median call in
 * the trace (its kernels' first start to last end, on CUPTI's clock) to within
 * 5 % or 2 microseconds of samples.csv's median (CUDA events around the
 * launch). At W = 2048 every call lasts far longer than the events' own
 * overhead (about 2.5 microseconds on an H100). Skipped, never passed,
 * without a GPU.
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

static char workdir[] = "/tmp/memscope-trace-gpu-XXXXXX";

static const char *memscope(void)
{
    const char *path = getenv("MEMSCOPE_BIN");
    return path ? path : "build/memscope";
}

static void the_traces_kernels_last_as_long_as_the_runs_samples(void **state)
{
    (void)state;
    static struct outcome o;
    if (!gpu_present()) {
        print_message("no GPU: nothing to trace, skipped\n");
        skip();
    }
    shell(&o, "%s -v naive,tiled_32,cublas -s 2048 --no-metrics --trace -o %s/run", memscope(), workdir);
    if (o.exit_code != 0)
        fail_msg("memscope --trace exited %d:\n%s", o.exit_code, o.output);
    shell(&o, "scripts/trace-check %s/run --durations", workdir);
    print_message("%s", o.output);
    if (o.exit_code != 0)
        fail_msg("trace-check exited %d", o.exit_code);
    assert_non_null(strstr(o.output, "cublas W=2048: samples.csv median"));
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
        cmocka_unit_test(the_traces_kernels_last_as_long_as_the_runs_samples),
    };
    return cmocka_run_group_tests_name("trace_gpu", tests, setup, teardown);
}
