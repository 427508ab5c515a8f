/*
 * The straggler view of a multi-process program's profile (issues 41 and 48), from tests/fixtures/profile-two-ranks:
 * two ranks' parts merged by memscope-profile (jobs keyed "[rank R]/..."), made by hand from profile-small's shapes:
 * rank 1's GEMM launch #0 25 % slower than rank 0's with 20 % less DRAM throughput, and each rank's NCCL all-reduce,
 * timed only ("not replayed"). Its parts' folders (rank-0/, rank-1/) hold launches.csv with each launch's start on
 * CUPTI's clock and environment.csv with clock_offset_ns, two clocks that differ: on the host's, rank 1 reached the
 * all-reduce 0.395 ms before rank 0 and waited for it (0.605 ms against rank 0's 0.210 ms), after 3 launches replayed
 * by memscope in each rank. The ranks page compares kernels, not collectives; the collectives page splits each
 * rank's time in them into wait and transfer and names rank 0, the last to arrive, as the straggler. A profile of one
 * process has neither page. Then `make report` renders them (gnuplot and poppler-utils; skipped where missing).
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

#define FIXTURE "tests/fixtures/profile-two-ranks"
#include "../support/page_data.h"

static void the_ranks_pages_follow_the_kernels(void **state)
{
    (void)state;
    write_data(FIXTURE);
    expect_in(data_file("pages.tsv"), "kernels-1\tkernels.gp\tkernels_page=1\nranks\tranks.gp\t\n"
                                      "collectives\tcollectives.gp\t\n");
}

/* The GEMM's launches in rank 1 (#0 at 3.33 ms, #1 at 2.66 ms, 6 of each) against rank 0's (2.66 ms), medians 2.99
 * against 2.66: +12.3 %, the DRAM figures of rank 1's first launch 20 % lower; the kernels equal in both ranks after,
 * at +0.0 % with no counter; the all-reduce is on the collectives page, not here. */
static void each_kernel_shows_its_ranks_the_slowest_and_what_differs(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *ranks = data_file("ranks.tsv");
    expect_in(ranks, "kernel\tmedian ms per rank, alone\tslowest\tover the fastest\tbeside a collective\t"
                     "counters that differ\n"
                     "Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>\trank 0 2.66, rank 1 2.99\trank 1\t"
                     "+12.3 %\t0/2, 0/2\tDRAM GB/s, DRAM %\n");
    expect_in(ranks, "vectorized_layer_norm_kernel<float, float>\trank 0 0.0522, rank 1 0.0522\trank 0\t+0.0 %\t"
                     "0/1, 0/1\tnone\n");
    assert_null(strstr(ranks, "ncclDevKernel"));
    expect_in(data_file("variables.gp"), "ranks_rows = 6\nranks_kernels = 5\n");
}

/* A launch beside its rank's collective shares the GPU with the collective's wait: rank 1's slow GEMM launch #0
 * (3.31 ms) moved to start 1 ms before rank 1's all-reduce, so that they overlap, is counted beside it and left out
 * of rank 1's median with its every run: rank 1's #1 alone, 2.66 ms as rank 0's, +0.0 % (a tie names the first
 * rank; rank 1's first launch's counters, #0's, still differ). */
static void a_launch_beside_a_collective_is_left_out_of_its_ranks_median(void **state)
{
    (void)state;
    copy_fixture_and("sed -i 's/,122990013061$/,122999000000/' $R/rank-1/launches.csv");
    write_data(scratch);
    expect_in(data_file("ranks.tsv"), "\nKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>\trank 0 2.66, rank 1 2.66\t"
                                      "rank 0\t+0.0 %\t0/2, 1/2\tDRAM GB/s, DRAM %\n");
}

/* A rank whose every launch of a kernel ran beside a collective keeps its place on the row: rank 1's two GEMM
 * launches (#0 3.31 ms, #1 2.65 ms) moved to start 1 and 0.5 ms before its all-reduce read "none alone", counted 2/2
 * beside it; with one rank's median left, no rank is the slowest, and the row sorts after the kernels that have
 * one. */
static void a_rank_with_no_launch_alone_keeps_its_place_on_the_row(void **state)
{
    (void)state;
    copy_fixture_and("sed -i -e 's/,122990013061$/,122999000000/' -e 's/,122993324830$/,122999500000/' "
                     "$R/rank-1/launches.csv");
    write_data(scratch);
    const char *ranks = data_file("ranks.tsv");
    expect_in(ranks, "\nKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>\trank 0 2.66, rank 1 none alone\t-\t-\t"
                     "0/2, 2/2\t-\n");
    if (strstr(ranks, "Kernel2<") < strstr(ranks, "vectorized_layer_norm_kernel"))
        fail_msg("a row without a slowest rank sorted before one with:\n%s", ranks);
    expect_in(data_file("variables.gp"), "ranks_rows = 6\nranks_kernels = 5\n");
}

/* The straggler by arrival: rank 0 started the all-reduce last, 0.395 ms after rank 1, which waited all that time
 * (65.3 % of its 0.605 ms) and moved data for 0.210 ms, as rank 0 did; rank 0 had launches replayed by memscope
 * since its collective before, so that wait is memscope's. */
static void the_collectives_page_names_the_last_arrival_and_splits_wait_from_transfer(void **state)
{
    (void)state;
    write_data(FIXTURE);
    assert_string_equal(data_file("collectives-parts.tsv"),
                        "\npart\tcollectives\ttime ms\twaiting ms\twaiting %\ttransfer ms\tarrived last\t"
                        "wait from replays ms\n"
                        "rank 0\t1\t0.21\t0\t0.0\t0.21\t1\t0\n"
                        "rank 1\t1\t0.605\t0.395\t65.3\t0.21\t0\t0.395\n");
    expect_in(data_file("collectives.tsv"), "\n0\tncclDevKernel_AllReduce_Sum_f32_RING_LL\trank 0 (+0.395 ms)\t"
                                            "rank 1 0.395 ms\t0.21 ms\tyes: 3 launches replayed\n");
    expect_in(data_file("variables.gp"), "collectives_parts = 2\ncollectives_parts_shown = 2\ncollectives_shown = 1\n"
                                         "collectives_matched = 1\ncollectives_unmatched = ''\n");
}

/* A rank whose collective ended before the last rank arrived did not wait for it (a broadcast's root whose data fit
 * NCCL's buffers): rank 1's all-reduce made to end 0.2 ms after its start, before rank 0's 0.395 ms: no wait. */
static void a_rank_done_before_the_last_arrival_did_not_wait(void **state)
{
    (void)state;
    copy_fixture_and("sed -i 's/,605000,1,/,200000,1,/' $R/rank-1/launches.csv");
    write_data(scratch);
    expect_in(data_file("collectives-parts.tsv"), "\nrank 1\t1\t0.2\t0\t0.0\t0.2\t0\t0\n");
}

/* Collectives whose n-th differs between ranks are matched up to there, and the page says where it stopped. */
static void collectives_that_do_not_match_are_matched_up_to_the_first_that_differs(void **state)
{
    (void)state;
    copy_fixture_and("sed -i 's/ncclDevKernel_AllReduce_Sum_f32_RING_LL/ncclDevKernel_Broadcast_RING_LL/' "
                     "$R/rank-1/launches.csv");
    write_data(scratch);
    assert_null(strstr(data_file("pages.tsv"), "collectives"));
    copy_fixture_and("tail -1 $R/rank-1/launches.csv > $R/x && cat $R/x >> $R/rank-1/launches.csv");
    write_data(scratch);
    expect_in(data_file("variables.gp"), "collectives_matched = 1\ncollectives_unmatched = 'the parts ran 1 to 2 "
                                         "collectives: the first 1 are matched'\n");
}

/* Profiles written before issue 48 have no start times: no collectives page, and the kernels still compare. */
static void a_profile_without_start_times_has_no_collectives_page(void **state)
{
    (void)state;
    write_data("tests/fixtures/profile-ddp-nccl-h100");
    assert_null(strstr(data_file("pages.tsv"), "collectives"));
    expect_in(data_file("pages.tsv"), "\nranks\tranks.gp\t\n");
}

/* The kernels page ranks every rank's launches of a kernel together: the GEMM's 24 launches (12 a rank). */
static void the_kernels_page_counts_every_ranks_launches(void **state)
{
    (void)state;
    write_data(FIXTURE);
    expect_in(data_file("kernels-1.tsv"), "1\tKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>\t24\t");
}

/* A selected collective kept back from replay reads "not replayed" in the limiter column, not "timed only" as a
 * launch the selection left out does (issue 41), and says its time is mostly waiting. */
static void the_kernels_page_says_a_collective_was_not_replayed(void **state)
{
    (void)state;
    write_data(FIXTURE);
    expect_in(data_file("kernels-1.tsv"), "ncclDevKernel_AllReduce_Sum_f32_RING_LL\t12\t4.890\t");
    expect_in(data_file("kernels-1.tsv"), "\tnot replayed\n\ta collective: its time is mostly waiting for the other "
                                          "ranks; never replayed for metrics\n");
}

/* A kernel whose selected launches were all kept back from replay beside a running collective (summary.csv's "kept
 * back": rank 0's and rank 1's add) reads "not replayed" and says why, not "timed only"; the title page counts it. */
static void the_kernels_page_says_why_a_kernel_was_kept_back(void **state)
{
    (void)state;
    copy_fixture_and("sed -i '/CUDAFunctor_add/s/,timed,/,kept back,/' $R/summary.csv");
    write_data(scratch);
    expect_in(data_file("kernels-1.tsv"), "CUDAFunctor_add<…>, array<…> >\t12\t");
    expect_in(data_file("kernels-1.tsv"), "\tnot replayed\n\tkept back from replay: a collective of the program ran on "
                                          "this host at its selected launches, and a replay would have undone its "
                                          "writes\n");
    expect_in(data_file("title.tsv"), "kernels profiled with hardware metrics, each by its first launch profiled; the "
                                      "rest timed\n");
    expect_in(data_file("title.tsv"), "not replayed\t1 kept back from replay beside a running collective\n");
}

/* A kernel whose selected launches were kept back while the program captured a CUDA graph ("kept back in a
 * capture") says that reason, not a collective's; the title page counts it apart. */
static void the_kernels_page_says_a_kernel_was_kept_back_during_a_capture(void **state)
{
    (void)state;
    copy_fixture_and("sed -i '/CUDAFunctor_add/s/,timed,/,kept back in a capture,/' $R/summary.csv");
    write_data(scratch);
    expect_in(data_file("kernels-1.tsv"), "\tnot replayed\n\tkept back from replay: the program was capturing a CUDA "
                                          "graph at its selected launches, which a replay's calls would have ended "
                                          "with an error\n");
    expect_in(data_file("title.tsv"), "not replayed\t1 kept back from replay during a CUDA graph's capture\n");
    assert_null(strstr(data_file("title.tsv"), "beside a running collective"));
}

/* Where the stall run sampled it (it keeps no launch back), the line below says whence its figures come. */
static void a_kept_back_kernel_with_stall_samples_says_it_has_no_metrics(void **state)
{
    (void)state;
    copy_fixture_and("sed -i -e '/CUDAFunctor_add/s/,timed,/,kept back,/' "
                     "-e '/CUDAFunctor_add/s/,128,,,,,,,,,,,$/,128,,,,,,,,400,long_scoreboard,55,1.0/' $R/summary.csv");
    write_data(scratch);
    expect_in(data_file("kernels-1.tsv"), "CUDAFunctor_add<…>, array<…> >\t12\t");
    expect_in(data_file("kernels-1.tsv"), "\n\tkept back from replay beside a running collective (stall samples "
                                          "only): ");
}

/* Rank 0's layer norm kept back with stall samples, rank 1's profiled: rank 1's hardware metrics stand for the kernel,
 * though rank 0's job comes first, and nothing says it was kept back. */
static void a_profiled_job_stands_before_a_kept_back_one_with_stall_samples(void **state)
{
    (void)state;
    copy_fixture_and("sed -i '/\\[rank 0\\]\\/step 1\\/layer_norm/{s/,profiled,/,kept back,/;"
                     "s/,,,,$/,400,long_scoreboard,55,1.0/}' $R/summary.csv");
    write_data(scratch);
    expect_in(data_file("kernels-1.tsv"), "vectorized_layer_norm_kernel<float, float>\t12\t0.6267\t0.8\t0.0522\t"
                                          "0.0521-0.0524\t-\tDRAM bandwidth\n\tfirst finding dram_bound");
    assert_null(strstr(data_file("title.tsv"), "kept back"));
}

/* A kernel every launch of which a CUDA graph ran (every job "in a graph") reads "not replayed", says why and what to
 * do; the title page counts it. */
static void the_kernels_page_says_a_kernel_ran_only_in_cuda_graphs(void **state)
{
    (void)state;
    copy_fixture_and("sed -i '/CUDAFunctor_add/s/,timed,/,in a graph,/' $R/summary.csv");
    write_data(scratch);
    expect_in(data_file("kernels-1.tsv"), "\tnot replayed\n\tlaunched only inside CUDA graphs, whose kernels memscope "
                                          "does not replay: run it once outside a graph to profile it\n");
    expect_in(data_file("title.tsv"), "not replayed\t1 launched only inside CUDA graphs\n");
}

static void a_profile_of_one_process_has_no_ranks_page(void **state)
{
    (void)state;
    write_data("tests/fixtures/profile-small");
    assert_null(strstr(data_file("pages.tsv"), "ranks"));
    assert_false(data_written("ranks.tsv"));
}

/* Rank 1's rows taken out: every job in one part, nothing to compare. */
static void a_profile_whose_jobs_ran_in_one_part_has_no_ranks_page(void **state)
{
    (void)state;
    copy_fixture_and("for f in summary samples metrics; do grep -v '^\"*\\[rank 1\\]' $R/$f.csv >$R/x && "
                     "mv $R/x $R/$f.csv; done");
    write_data(scratch);
    assert_null(strstr(data_file("pages.tsv"), "ranks"));
}

/* The real thing (tests/fixtures/profile-ddp-h100): tests/inject/program_ddp.py under torchrun on two H100s,
 * `memscope-profile --nvtx-include "step 2"` at b859812, two ranks on two GPUs and torchrun's own process, which ran
 * none. Its kernels compare rank by rank, NCCL's apart: the loss's kernel's medians, 0.00570 against 0.00610 ms in
 * rank 0's and rank 1's summary rows, differ most (+7.0 %). */
static void a_real_two_rank_profile_compares_its_kernels(void **state)
{
    (void)state;
    write_data("tests/fixtures/profile-ddp-h100");
    expect_in(data_file("pages.tsv"), "\nranks\tranks.gp\t\n");
    expect_in(data_file("ranks.tsv"), "counters that differ\nnll_loss_forward_reduce_cuda_kernel_2d<float, float, long>\t"
                                      "rank 0 0.00570, rank 1 0.00610\trank 1\t+7.0 %\t0/4, 0/4\tnone\n");
    assert_null(strstr(data_file("ranks.tsv"), "nccl"));
}

/* tests/fixtures/profile-ddp-nccl-h100: the same program under torchrun on two H100s, NCCL's kernels selected
 * (`--kernel ncclDevKernel`, at eb44f1a): all 20 selected launches kept back from replay; the all-reduce's 10
 * launches over both ranks, 7.598 ms, are 73.5 % of the kernels' time, and the title names the busiest kernel that is
 * no collective beside it. */
static void a_real_profile_of_selected_collectives_keeps_them_from_replay(void **state)
{
    (void)state;
    write_data("tests/fixtures/profile-ddp-nccl-h100");
    expect_in(data_file("kernels-1.tsv"), "1\tncclDevKernel_AllReduce_Sum_f32_RING_LL\t10\t7.598\t73.5\t");
    expect_in(data_file("title.tsv"), "\nbusiest\tncclDevKernel_AllReduce_Sum_f32_RING_LL takes 73.5 % of the kernels' "
                                      "GPU time (10 launches, 7.598 ms)\ncollectives apart\t");
    expect_in(data_file("title.tsv"), "GPU\tNVIDIA H100 80GB HBM3");
}

/* tests/fixtures/profile-ddp-compile-h100: a training script as users write them (tests/inject/program_train_ddp.py:
 * DDP over NCCL, torch.compile, a DataLoader with two workers, bf16 autocast, 6 steps) profiled on two H100s by the
 * README's command with the stalls group, `build/memscope-profile --metric-groups global,shared,dram,roofline,cache,
 * sol,tensor,causes,stalls -o prof -- torchrun --nproc_per_node=2 tests/inject/program_train_ddp.py`, at 785a634
 * (2026-11-28). Its parts are the two ranks alone: torchrun's own process and Inductor's compile workers launched no
 * kernel and left none. The profile is named by the command run; its kernels page begins with the kernel of the
 * largest total time, the all-reduce (34 launches, 848.012 ms in kernels.csv: mostly waiting); the roofline has the
 * roofs measured on its GPU; its collectives page names the last rank to arrive: rank 0 reached all-reduce 3 815 ms
 * after rank 1, having had 27 launches replayed by memscope since its collective before; and its stall pages draw the
 * kernels' sampled launches, their labels whole characters (a '…' cut in two drew garbage over the page). */
static void a_compiled_ddp_training_script_reads_as_its_program(void **state)
{
    (void)state;
    static struct outcome o;
    const char *fixture = "tests/fixtures/profile-ddp-compile-h100";
    shell(&o, "cd %s && ls -d */", fixture);
    assert_string_equal(o.output, "rank-0/\nrank-1/\nstall-sampling/\n");
    write_data(fixture);
    const char *title = data_file("title.tsv");
    expect_in(title, "\nProgram\ttorchrun --nproc_per_node=2 tests/inject/program_train_ddp.py\n");
    expect_in(title, "\nProcesses\t2\n");
    expect_in(data_file("kernels-1.tsv"), "\n1\tncclDevKernel_AllReduce_Sum_f32_RING_LL\t34\t848.0\t94.0\t");
    expect_in(data_file("roofs.gp"), "roofs_note = 'Roofs measured on this GPU by memscope'.\"'\".'s kernels");
    expect_in(data_file("collectives.tsv"), "\n3\tncclDevKernel_AllReduce_Sum_f32_RING_LL\trank 0 (+815 ms)\t"
                                            "rank 1 815 ms\t0.425 ms\tyes: 27 launches replayed\n");
    /* what reaches past its column is cut: the line below a kernel's row, the counters named, Inductor's file names */
    expect_in(data_file("kernels-1.tsv"), "tensor pipe 81 % of cycles; top stall reason …\n");
    expect_in(data_file("ranks.tsv"), "\tDRAM GB/s, occupancy, SM % and 6 more\n");
    /* a kernel a line: 28 of its 35 kernels in two ranks, where the page showed 14 in its top half */
    expect_in(data_file("variables.gp"), "ranks_rows = 29\nranks_kernels = 35\n");
    expect_in(data_file("stall-lines.tsv"), "\tcxtu6hie3g…gzc7qcu.py:25\t");
    shell(&o, "python3 -c 'import sys; [open(f, encoding=\"utf-8\").read() for f in sys.argv[1:]]' %s/stalls.tsv "
              "%s/stall-lines.tsv", data_dir, data_dir);
    if (o.exit_code != 0)
        fail_msg("a stall page's table is not UTF-8:\n%s", o.output);
}

static void make_report_renders_the_ranks_page(void **state)
{
    (void)state;
    static struct outcome o;
    if (system("command -v gnuplot >/dev/null && command -v pdftotext >/dev/null") != 0)
        skip();
    shell(&o, "rm -rf reports/profile-two-ranks-report && make --no-print-directory report RESULTS=" FIXTURE);
    if (o.exit_code != 0)
        fail_msg("make report failed (%d):\n%s", o.exit_code, o.output);
    shell(&o, "pdftotext -layout reports/profile-two-ranks-report/memscope-report.pdf - && "
              "rm -rf reports/profile-two-ranks-report");
    expect_in(o.output, "Ranks compared: the same kernel in each process");
    expect_in(o.output, "+12.3 %");
    expect_in(o.output, "Collectives: wait and transfer");
    expect_in(o.output, "yes: 3 launches replayed");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_ranks_pages_follow_the_kernels),
        cmocka_unit_test(each_kernel_shows_its_ranks_the_slowest_and_what_differs),
        cmocka_unit_test(a_launch_beside_a_collective_is_left_out_of_its_ranks_median),
        cmocka_unit_test(a_rank_with_no_launch_alone_keeps_its_place_on_the_row),
        cmocka_unit_test(the_collectives_page_names_the_last_arrival_and_splits_wait_from_transfer),
        cmocka_unit_test(a_rank_done_before_the_last_arrival_did_not_wait),
        cmocka_unit_test(collectives_that_do_not_match_are_matched_up_to_the_first_that_differs),
        cmocka_unit_test(a_profile_without_start_times_has_no_collectives_page),
        cmocka_unit_test(the_kernels_page_counts_every_ranks_launches),
        cmocka_unit_test(the_kernels_page_says_a_collective_was_not_replayed),
        cmocka_unit_test(the_kernels_page_says_why_a_kernel_was_kept_back),
        cmocka_unit_test(the_kernels_page_says_a_kernel_was_kept_back_during_a_capture),
        cmocka_unit_test(a_kept_back_kernel_with_stall_samples_says_it_has_no_metrics),
        cmocka_unit_test(the_kernels_page_says_a_kernel_ran_only_in_cuda_graphs),
        cmocka_unit_test(a_profiled_job_stands_before_a_kept_back_one_with_stall_samples),
        cmocka_unit_test(a_profile_of_one_process_has_no_ranks_page),
        cmocka_unit_test(a_profile_whose_jobs_ran_in_one_part_has_no_ranks_page),
        cmocka_unit_test(a_real_two_rank_profile_compares_its_kernels),
        cmocka_unit_test(a_real_profile_of_selected_collectives_keeps_them_from_replay),
        cmocka_unit_test(a_compiled_ddp_training_script_reads_as_its_program),
        cmocka_unit_test(make_report_renders_the_ranks_page),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
