/*
 * The straggler view of a multi-process program's profile (issue 41), from tests/fixtures/profile-two-ranks: two
 * ranks' parts merged by memscope-profile (jobs keyed "[rank R]/..."), made by hand from profile-small's shapes (the
 * lead replaces it with one taken on two GPUs): rank 1's GEMM #0 25 % slower than rank 0's with 20 % less DRAM
 * throughput, and each rank's NCCL all-reduce, timed only ("not replayed"). The page ranks the jobs by how much their
 * slowest rank exceeds their fastest and names the counters that differ; a profile of one process has no such page.
 * Then `make report` renders it (gnuplot and poppler-utils; skipped where missing).
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

static void the_ranks_page_follows_the_kernels(void **state)
{
    (void)state;
    write_data(FIXTURE);
    expect_in(data_file("pages.tsv"), "kernels-1\tkernels.gp\tkernels_page=1\nranks\tranks.gp\t\n");
}

/* Rank 1's GEMM: 2.663921 ms x 1.25 = 3.33 ms against 2.66 ms, +25.0 %, its DRAM figures 20 % lower; the all-reduce
 * 0.605 against 0.21 ms (+188.1 %) comes first; the jobs equal in both ranks last, at +0.0 % with no counter. */
static void each_job_shows_its_ranks_the_slowest_and_what_differs(void **state)
{
    (void)state;
    write_data(FIXTURE);
    const char *ranks = data_file("ranks.tsv");
    expect_in(ranks, "job (slowest rank's)\tmedian ms per rank\tslowest\tover the fastest\tcounters that differ\n"
                     "ncclDevKernel_AllReduce_Sum_f32_RING_LL #0 (step 1)\trank 0 0.210, rank 1 0.605\trank 1\t"
                     "+188.1 %\tnone\n"
                     "Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1> #0 (step 1/matmul)\trank 0 2.66, rank 1 "
                     "3.33\trank 1\t+25.0 %\tDRAM GB/s, DRAM %\n");
    expect_in(ranks, "vectorized_layer_norm_kernel<float, float> #0 (step 1/layer_norm)\trank 0 0.0522, rank 1 "
                     "0.0522\trank 0\t+0.0 %\tnone\n");
    expect_in(data_file("variables.gp"), "ranks_rows = 8\nranks_jobs = 7\n");
}

/* The kernels page ranks every rank's jobs as one list, the part as the outermost path. */
static void the_kernels_page_ranks_all_ranks_jobs(void **state)
{
    (void)state;
    write_data(FIXTURE);
    expect_in(data_file("kernels-1.tsv"), "1\tKernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>\t[rank 1]/step "
                                          "1/matmul\t#0\t6\t3.330\t");
}

/* A selected collective kept back from replay reads "not replayed" in the limiter column, not "timed only" as a
 * launch the selection left out does (issue 41). */
static void the_kernels_page_says_a_collective_was_not_replayed(void **state)
{
    (void)state;
    write_data(FIXTURE);
    expect_in(data_file("kernels-1.tsv"), "ncclDevKernel_AllReduce_Sum_f32_RING_LL\t[rank 1]/step 1\t#0\t6\t0.6050\t");
    expect_in(data_file("kernels-1.tsv"), "\tnot replayed\n\ttimed only: a selected collective is never replayed "
                                          "for metrics\n");
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
 * none. Its straggler is the all-reduce that rank 1 waits in for rank 0: launch 94 of each rank's launches.csv,
 * 38,720 ns in rank 0 and 33,789,700 ns in rank 1, so 0.0387 against 33.8 ms, +87,166.8 %. */
static void a_real_two_rank_profile_names_its_straggler(void **state)
{
    (void)state;
    write_data("tests/fixtures/profile-ddp-h100");
    expect_in(data_file("pages.tsv"), "\nranks\tranks.gp\t\n");
    expect_in(data_file("ranks.tsv"), "counters that differ\nncclDevKernel_AllReduce_Sum_f32_RING_LL #3\trank 0 0.0387, "
                                      "rank 1 33.8\trank 1\t+87166.8 %\tnone\n");
}

/* tests/fixtures/profile-ddp-nccl-h100: the same program under torchrun on two H100s, NCCL's kernels selected
 * (`--kernel ncclDevKernel`, at eb44f1a): all 20 selected launches kept back from replay, each rank's part naming
 * its GPU; rank 0's all-reduce #1, 4.353 ms, is 42.1 % of the kernels' time, rank 1's 0.0321 ms. */
static void a_real_profile_of_selected_collectives_keeps_them_from_replay(void **state)
{
    (void)state;
    write_data("tests/fixtures/profile-ddp-nccl-h100");
    expect_in(data_file("kernels-1.tsv"), "1\tncclDevKernel_AllReduce_Sum_f32_RING_LL\t[rank 0]\t#1\t1\t4.353\t42.1\t-\t"
                                          "not replayed\n");
    expect_in(data_file("ranks.tsv"), "ncclDevKernel_AllReduce_Sum_f32_RING_LL #1\trank 0 4.35, rank 1 0.0321\trank 0\t"
                                      "+13448.8 %\tnone\n");
    expect_in(data_file("title.tsv"), "GPU\tNVIDIA H100 80GB HBM3");
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
    expect_in(o.output, "Ranks compared: the same job in each process");
    expect_in(o.output, "+25.0 %");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_ranks_page_follows_the_kernels),
        cmocka_unit_test(each_job_shows_its_ranks_the_slowest_and_what_differs),
        cmocka_unit_test(the_kernels_page_ranks_all_ranks_jobs),
        cmocka_unit_test(the_kernels_page_says_a_collective_was_not_replayed),
        cmocka_unit_test(a_profile_of_one_process_has_no_ranks_page),
        cmocka_unit_test(a_profile_whose_jobs_ran_in_one_part_has_no_ranks_page),
        cmocka_unit_test(a_real_two_rank_profile_names_its_straggler),
        cmocka_unit_test(a_real_profile_of_selected_collectives_keeps_them_from_replay),
        cmocka_unit_test(make_report_renders_the_ranks_page),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
