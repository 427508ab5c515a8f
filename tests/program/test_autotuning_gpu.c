/*
 * A program that autotunes, profiled for real (GPU; skipped without one, or without PyTorch and Triton):
 * tests/inject/program_autotune.py calls a Triton kernel under @triton.autotune, a torch.compile'd layer norm
 * and GELU and a torch.compile'd cast 7 times each. Profiled with Inductor's cache empty, then again with it
 * warm, each of its Triton kernels is the program's 7 times, the candidates' timing counted apart (kernels.csv:
 * autotuning_launches), the L2 flush none of the program's; with the cache warm Inductor times nothing, and
 * @triton.autotune (no cache across processes) times its kernel again. The two profiles compare kernel by kernel
 * with no kernel launched unlike.
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

static char workdir[] = "/tmp/memscope-autotuning-XXXXXX";
static struct outcome cold, warm, compared;
static int runnable;

static void profile(struct outcome *o, const char *name)
{
    shell(o, "TORCHINDUCTOR_CACHE_DIR=%s/inductor %s/memscope-profile --metric-groups global,sol -o %s/%s -- python3 "
             "tests/inject/program_autotune.py",
          workdir, build_dir(), workdir, name);
}

static int setup(void **state)
{
    (void)state;
    static struct outcome torch;
    if (!mkdtemp(workdir))
        return -1;
    shell(&torch, "python3 -c 'import torch, triton; assert torch.cuda.is_available()'");
    runnable = gpu_present() && torch.exit_code == 0;
    if (!runnable)
        return 0;
    profile(&cold, "cold");
    profile(&warm, "warm");
    shell(&compared, "%s/memscope-compare %s/cold %s/warm", build_dir(), workdir, workdir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

static void skip_unless_runnable(void)
{
    if (!runnable) {
        print_message("no GPU, or no PyTorch and Triton: no program to profile\n");
        skip();
    }
}

/* "kernel launches autotuning_launches" for each kernel of the profile whose name holds piece, one a line. */
static const char *counts(const char *name, const char *piece)
{
    static struct outcome o;
    shell(&o, "python3 -c 'import csv, sys; [print(r[\"kernel\"][:40].replace(\" \", \"_\"), r[\"launches\"], "
              "r[\"autotuning_launches\"]) for r in csv.DictReader(open(sys.argv[1])) "
              "if sys.argv[2] in r[\"kernel\"]]' %s/%s/kernels.csv '%s'",
          workdir, name, piece);
    assert_int_equal(o.exit_code, 0);
    return o.output;
}

/* Each matching kernel launched 7 times by the program; the autotuners' launches of them all, returned. */
static unsigned expect_each(const char *name, const char *piece)
{
    const char *text = counts(name, piece);
    unsigned kernels = 0, all_autotuning = 0;
    for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
        char kernel[64];
        unsigned launches, autotuning;
        if (sscanf(line, "%63s %u %u", kernel, &launches, &autotuning) != 3)
            fail_msg("%s: unreadable line in:\n%s", name, text);
        if (launches != 7)
            fail_msg("%s: %s launched %u times by the program; expected 7", name, kernel, launches);
        all_autotuning += autotuning;
        ++kernels;
    }
    if (kernels == 0)
        fail_msg("%s: no kernel named %s in kernels.csv", name, piece);
    return all_autotuning;
}

/* Timed by an autotuner: at least the five estimating runs, and a flush before each, of two candidates. */
#define LEAST_TIMING 20

static void the_cold_profile_counts_the_programs_launches_apart_from_the_timing(void **state)
{
    (void)state;
    skip_unless_runnable();
    if (cold.exit_code != 0 || !strstr(cold.output, "calls 7 sum"))
        fail_msg("exit %d:\n%s", cold.exit_code, cold.output);
    assert_in_range(expect_each("cold", "scale_kernel"), LEAST_TIMING, UINT32_MAX);
    assert_in_range(expect_each("cold", "triton_"), LEAST_TIMING, UINT32_MAX); /* the cast's */
    const char *flush = counts("cold", "FillFunctor<int>");
    unsigned launches = 1, autotuning = 0;
    if (sscanf(flush, "%*s %u %u", &launches, &autotuning) != 2 || launches != 0 || autotuning < 2 * LEAST_TIMING)
        fail_msg("the L2 flush: expected no launch of the program's and the autotuners' many:\n%s", flush);
}

static void with_the_cache_warm_only_triton_autotune_times_again(void **state)
{
    (void)state;
    skip_unless_runnable();
    if (warm.exit_code != 0)
        fail_msg("exit %d:\n%s", warm.exit_code, warm.output);
    assert_in_range(expect_each("warm", "scale_kernel"), LEAST_TIMING, UINT32_MAX);
    assert_int_equal(expect_each("warm", "triton_"), 0);
}

static void cold_and_warm_compare_kernel_by_kernel(void **state)
{
    (void)state;
    skip_unless_runnable();
    if (compared.exit_code != 0 && compared.exit_code != 1)
        fail_msg("memscope-compare exit %d:\n%s", compared.exit_code, compared.output);
    if (strstr(compared.output, "launches a run in base") || !strstr(compared.output, "scale_kernel"))
        fail_msg("expected scale_kernel compared and no kernel launched unlike:\n%s", compared.output);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_cold_profile_counts_the_programs_launches_apart_from_the_timing),
        cmocka_unit_test(with_the_cache_warm_only_triton_autotune_times_again),
        cmocka_unit_test(cold_and_warm_compare_kernel_by_kernel),
    };
    return cmocka_run_group_tests_name("a program that autotunes, profiled", tests, setup, teardown);
}
