/*
 * A replay beside another rank's collective, for real (two GPUs; skipped with fewer, or without PyTorch):
 * tests/inject/program_peers.py's rank 0 launches a matmul and a sine, each replayed at every launch, while rank 1
 * starts all-reduces after a delay. Before harness/gpu/peers.h a replay whose restore undid rank 1's writes into
 * rank 0's buffers left both ranks waiting for ever (on two H200s at c733e1a, from a delay of 0.01 or 0.02 s on).
 * Now the program ends with the all-reduces' sums right, rank 0's launches are profiled, and those a running
 * collective kept from replay are timed only, each saying so, and counted on stderr.
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
#include <cuda_runtime_api.h>

#include "../support/build_dir.h"
#include "../support/remove_tree.h"
#include "../support/run_shell.h"

static char workdir[] = "/tmp/memscope-peers-gpu-XXXXXX";
static struct outcome profiled;
static int runnable;

static int setup(void **state)
{
    (void)state;
    static struct outcome torch;
    int gpus = 0;
    if (!mkdtemp(workdir))
        return -1;
    shell(&torch, "python3 -c 'import torch, torch.distributed; assert torch.cuda.device_count() >= 2' && "
                  "command -v torchrun");
    runnable = cudaGetDeviceCount(&gpus) == cudaSuccess && gpus >= 2 && torch.exit_code == 0;
    if (!runnable)
        return 0;
    /* killed with its whole process group where it hangs: the ranks then free their GPUs */
    shell(&profiled, "timeout -s KILL 300 %s/memscope-profile --launch-count-per-kernel 0 -o %s/peers -- torchrun "
                     "--standalone --nproc_per_node=2 tests/inject/program_peers.py 0 0.005 0.01 0.02 0.04 0.08",
          build_dir(), workdir);
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
        print_message("fewer than two GPUs, or no PyTorch: no two ranks to profile\n");
        skip();
    }
}

/* rank-0's launches, "kernel selected not_replayed has_metrics" a line, from its launches.csv and metrics.csv. */
static const char *rank0_launches(void)
{
    static struct outcome o;
    shell(&o, "python3 -c 'import csv, sys; "
              "m = {r[\"variant\"] for r in csv.DictReader(open(sys.argv[2]))}; "
              "[print(r[\"kernel\"][:24].replace(\" \", \"_\"), r[\"selected\"], "
              "r[\"not_replayed\"].replace(\" \", \"_\") or \"-\", int(r[\"job\"] in m)) "
              "for r in csv.DictReader(open(sys.argv[1]))]' "
              "%s/peers/rank-0/launches.csv %s/peers/rank-0/metrics.csv",
          workdir, workdir);
    if (o.exit_code != 0)
        fail_msg("cannot read rank 0's launches:\n%s", o.output);
    return o.output;
}

static void the_ranks_end_with_their_sums_right(void **state)
{
    (void)state;
    skip_unless_runnable();
    if (profiled.exit_code != 0)
        fail_msg("exit %d (137: killed after 300 s, the ranks waiting for each other):\n%s", profiled.exit_code,
                 profiled.output);
    if (!strstr(profiled.output, "rank 0: correct after 6 delays") ||
        !strstr(profiled.output, "rank 1: correct after 6 delays"))
        fail_msg("a rank's all-reduce sums are wrong:\n%s", profiled.output);
}

static void launches_are_profiled_and_those_kept_back_say_why(void **state)
{
    (void)state;
    skip_unless_runnable();
    const char *launches = rank0_launches();
    if (!strstr(launches, " 1 - 1\n"))
        fail_msg("no selected launch of rank 0 has metrics:\n%s", launches);
    if (!strstr(launches, " 1 a_collective_running 0\n"))
        fail_msg("no selected launch of rank 0 was timed only for a running collective:\n%s", launches);
    if (!strstr(profiled.output, "selected launches were timed only, not replayed: a collective of the program was "
                                 "running on this host"))
        fail_msg("stderr does not count them:\n%s", profiled.output);
    static struct outcome kept;
    shell(&kept, "grep -c '^\"*\\[rank 0\\]/.*,program,,0,kept back,' %s/peers/summary.csv", workdir);
    if (kept.exit_code != 0)
        fail_msg("summary.csv calls none of rank 0's jobs \"kept back\":\n%s", kept.output);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_ranks_end_with_their_sums_right),
        cmocka_unit_test(launches_are_profiled_and_those_kept_back_say_why),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
