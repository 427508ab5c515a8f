/*
 * Programs that use CUDA graphs, profiled for real (GPU; skipped without one, or without PyTorch):
 * - tests/inject/program_graph.py warms its work up eagerly, captures it with one kernel more into a graph and
 *   replays the graph. Profiled with every launch selected, the program still captures and replays its graph and
 *   computes right: a launch captured into a graph runs nothing then, and is never replayed (a replay would end the
 *   capture with an error). The eager launches are profiled; the graph's kernels are timed, "in a graph", and the
 *   kernel launched only inside it says so.
 * - tests/inject/program_capture_beside.py launches a kernel eagerly on another stream during a global-mode capture,
 *   which forbids the calls a replay makes: profiled with the default selection, it captures and computes right, and
 *   that launch is kept back ("kept back in a capture").
 * - tests/inject/program_threads_graph.py replays a graph in one thread while another thread's launches are all
 *   replayed: the graph's work is kept.
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

static char workdir[] = "/tmp/memscope-graph-XXXXXX";
static struct outcome profiled, beside, threads;
static int runnable;

static int setup(void **state)
{
    (void)state;
    static struct outcome torch;
    if (!mkdtemp(workdir))
        return -1;
    shell(&torch, "python3 -c 'import torch; assert torch.cuda.is_available()'");
    runnable = gpu_present() && torch.exit_code == 0;
    if (!runnable)
        return 0;
    shell(&profiled, "%s/memscope-profile --launch-count-per-kernel 0 --metric-groups dram -o %s/graph -- python3 "
                     "tests/inject/program_graph.py",
          build_dir(), workdir);
    shell(&beside, "%s/memscope-profile --metric-groups dram -o %s/beside -- python3 "
                   "tests/inject/program_capture_beside.py",
          build_dir(), workdir);
    shell(&threads, "%s/memscope-profile --launch-count-per-kernel 0 --metric-groups dram -o %s/threads -- python3 "
                    "tests/inject/program_threads_graph.py",
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
        print_message("no GPU, or no PyTorch: no program to profile\n");
        skip();
    }
}

static void the_program_captures_and_replays_its_graph_and_computes_right(void **state)
{
    (void)state;
    skip_unless_runnable();
    if (profiled.exit_code != 0 || !strstr(profiled.output, "graph replayed 4 times, result right"))
        fail_msg("exit %d:\n%s", profiled.exit_code, profiled.output);
    if (!strstr(profiled.output, "of the kernel launches ran inside CUDA graphs and were timed only"))
        fail_msg("memscope-profile does not say that launches ran inside graphs:\n%s", profiled.output);
}

/* "status kernel" for each kernel of the profile in that folder, one a line, from kernels.csv. */
static const char *kernel_statuses(const char *profile)
{
    static struct outcome o;
    shell(&o, "python3 -c 'import csv, sys; [print(r[\"status\"].replace(\" \", \"_\"), r[\"kernel\"]) "
              "for r in csv.DictReader(open(sys.argv[1]))]' %s/%s/kernels.csv",
          workdir, profile);
    assert_int_equal(o.exit_code, 0);
    return o.output;
}

/* Whether the line of statuses that names piece begins with status. */
static int has_status(const char *statuses, const char *piece, const char *status)
{
    const char *line = strstr(statuses, piece);
    if (!line)
        return 0;
    while (line > statuses && line[-1] != '\n')
        --line;
    return strncmp(line, status, strlen(status)) == 0;
}

static void eager_launches_are_profiled_and_the_graphs_kernels_timed_in_it(void **state)
{
    (void)state;
    skip_unless_runnable();
    const char *statuses = kernel_statuses("graph");
    if (!has_status(statuses, "sigmoid", "in_a_graph "))
        fail_msg("the kernel launched only inside the graph is not \"in a graph\":\n%s", statuses);
    if (!has_status(statuses, "tanh", "profiled "))
        fail_msg("the kernel launched eagerly too was not profiled:\n%s", statuses);
    static struct outcome selected_in_graph;
    shell(&selected_in_graph, "python3 -c 'import csv, sys; rows = list(csv.DictReader(open(sys.argv[1]))); "
                              "print(sum(r[\"graph\"] != \"0\" for r in rows), "
                              "sum(r[\"graph\"] != \"0\" and r[\"selected\"] == \"1\" for r in rows))' "
                              "%s/graph/launches.csv",
          workdir);
    assert_int_equal(selected_in_graph.exit_code, 0);
    if (strncmp(selected_in_graph.output, "0 ", 2) == 0 || !strstr(selected_in_graph.output, " 0\n"))
        fail_msg("launches.csv: graph launches, then those selected (want some, then 0): %s",
                 selected_in_graph.output);
}

static void a_launch_beside_a_global_capture_is_kept_back_and_the_program_computes_right(void **state)
{
    (void)state;
    skip_unless_runnable();
    if (beside.exit_code != 0 || !strstr(beside.output, "captured beside an eager launch, results right"))
        fail_msg("exit %d:\n%s", beside.exit_code, beside.output);
    if (!strstr(beside.output, "the program was capturing a CUDA graph, which a replay's calls would have ended"))
        fail_msg("memscope-profile does not say that launches were kept back during a capture:\n%s", beside.output);
    const char *statuses = kernel_statuses("beside");
    if (!has_status(statuses, "exp_kernel", "kept_back_in_a_capture "))
        fail_msg("the exp launched beside the capture is not \"kept back in a capture\":\n%s", statuses);
    if (!has_status(statuses, "tanh", "profiled "))
        fail_msg("the kernel launched eagerly before the capture was not profiled:\n%s", statuses);
}

static void a_graph_replayed_beside_another_threads_replays_keeps_its_work(void **state)
{
    (void)state;
    skip_unless_runnable();
    if (threads.exit_code != 0 || !strstr(threads.output, "graph replays added: min 300 max 300"))
        fail_msg("exit %d:\n%s", threads.exit_code, threads.output);
    if (!has_status(kernel_statuses("threads"), "sin", "profiled "))
        fail_msg("the other thread's kernels were not profiled:\n%s", kernel_statuses("threads"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_program_captures_and_replays_its_graph_and_computes_right),
        cmocka_unit_test(eager_launches_are_profiled_and_the_graphs_kernels_timed_in_it),
        cmocka_unit_test(a_launch_beside_a_global_capture_is_kept_back_and_the_program_computes_right),
        cmocka_unit_test(a_graph_replayed_beside_another_threads_replays_keeps_its_work),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
