/*
 * Each diagnosis rule on the figures of a kernel that should meet it. The measured rows are memscope's own,
 * at W = 4096 on an H100 (sol group and metrics.csv; Nsight Compute's SpeedOfLight section gave the same
 * percentages within 2.5 points for these): the limiter each should get is the one the lesson names.
 * Synthetic rows cover the rules no variant meets.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/diagnose/diagnosis.h"

/* The inputs of diagnosis.h, by their ids, and the tensor type (NULL: no tensor operation). */
struct kernel_figures {
    double v[DIAGNOSIS_INPUT_COUNT];
    const char *tensor_type;
};

static struct diagnosis run(struct kernel_figures k)
{
    struct diagnosis d;
    diagnose(k.v, k.tensor_type, &d);
    return d;
}

static struct kernel_figures figures(double l1, double l2, double dram, double fma, double issue, double sectors,
                                     double conflict_share)
{
    struct kernel_figures k = {{0}, NULL};
    k.v[IN_SOL_L1] = l1;
    k.v[IN_SOL_L2] = l2;
    k.v[IN_SOL_DRAM] = dram;
    k.v[IN_FMA_PIPE] = fma;
    k.v[IN_ISSUE_SLOTS] = issue;
    k.v[IN_SOL_SM] = fmax(fma, issue);
    k.v[IN_SOL_MEMORY] = fmax(l1, fmax(l2, dram));
    k.v[IN_OCCUPANCY] = 50.0;
    k.v[IN_SECTORS_PER_REQUEST_LD] = sectors;
    k.v[IN_LOAD_EFFICIENCY] = fmin(100.0, 400.0 / sectors); /* 32 floats a request: 4 sectors when coalesced */
    k.v[IN_CONFLICT_SHARE] = conflict_share;
    k.v[IN_FP64_PIPE] = 0.0;
    k.v[IN_TENSOR_PIPE] = 0.0;
    k.v[IN_FP64_TENSOR_PIPE] = NAN; /* a run since the split: the two pipes apart */
    k.v[IN_TENSOR_GFLOPS] = k.v[IN_TENSOR_ROOF_PCT] = NAN;
    k.v[IN_L2_HIT_RATE] = NAN; /* not collected: the L2 is never read as the DRAM's shadow */
    k.v[IN_DURATION_MS] = 1.0; /* long enough for a steady state */
    return k;
}

static void naive_uncoalesced_is_bound_by_uncoalesced_loads(void **state)
{
    (void)state;
    struct kernel_figures k = figures(99.0, 1.7, 0.9, 2.3, 3.4, 16.5, 0.0);
    k.v[IN_LOAD_EFFICIENCY] = 12.5; /* measured: a warp reads 32 floats of 32 different rows */
    struct diagnosis d = run(k);
    assert_string_equal(d.limiter, "uncoalesced global loads");
    assert_non_null(strstr(d.evidence, "use 12.5 % of the bytes their sectors carry (16.5 sectors per request)"));
    assert_non_null(strstr(d.evidence, "L1/shared at 99 %"));
}

/* A figure the evidence shows but the rule does not test may have no value (written empty): it is said so, never
 * printed as "nan". */
static void a_shown_figure_without_a_value_reads_not_collected(void **state)
{
    (void)state;
    struct kernel_figures k = figures(99.0, 1.7, 0.9, 2.3, 3.4, NAN, 0.0);
    k.v[IN_LOAD_EFFICIENCY] = 12.5;
    struct diagnosis d = run(k);
    assert_string_equal(d.limiter, "uncoalesced global loads");
    assert_non_null(
        strstr(d.evidence, "use 12.5 % of the bytes their sectors carry sectors_per_request_ld not collected"));
    assert_null(strstr(d.evidence, "nan"));
}

/* 32 doubles a request fill 8 sectors: coalesced, although a float kernel with 8 would not be. */
static void coalesced_fp64_loads_are_not_called_uncoalesced(void **state)
{
    (void)state;
    struct kernel_figures k = figures(95.9, 20.6, 18.1, 1.9, 24.1, 8.0, 0.0); /* tiled_32_fp64 */
    k.v[IN_LOAD_EFFICIENCY] = 100.0;
    assert_string_equal(run(k).limiter, "L1/shared bandwidth");
}

/* The evidence quotes the pipe the kernel's arithmetic runs on: an FP64 kernel's DFMA run on the FP64 pipe, not on
 * the FMA pipe, which its integer instructions keep a little busy (tiled_32_fp64 at W = 4096: 2 x 4096^3 FP64
 * operations, FP64 pipe 14.65 %, FMA pipe 1.86 %). */
static void an_fp64_kernel_s_evidence_quotes_the_fp64_pipe(void **state)
{
    (void)state;
    struct kernel_figures k = figures(95.9, 20.5, 18.0, 1.86, 24.1, 8.0, 0.0);
    k.v[IN_LOAD_EFFICIENCY] = 100.0; /* 32 doubles a request fill 8 sectors */
    k.v[IN_FP64_PIPE] = 14.65;
    k.v[IN_FLOP_FP64] = 137438953472.0;
    assert_string_equal(run(k).evidence, "L1/shared at 96 % of peak; FP64 pipe 15 %, DRAM 18 %");
    k.v[IN_FLOP_FP64] = 0.0; /* FP32 work counted: the FMA pipe */
    k.v[IN_FLOP_FP32] = 137438953472.0;
    assert_string_equal(run(k).evidence, "L1/shared at 96 % of peak; FMA pipe 2 %, DRAM 18 %");
    k.v[IN_FLOP_FP32] = k.v[IN_FLOP_FP64] = NAN; /* not collected: the busier of the two */
    assert_string_equal(run(k).evidence, "L1/shared at 96 % of peak; FP64 pipe 15 %, DRAM 18 %");
}

/* An FP64 kernel busy on DFMA keeps its FP64 wording: no tensor type, no tensor figure. */
static void a_busy_fp64_pipe_is_its_own_limiter(void **state)
{
    (void)state;
    struct kernel_figures k = figures(38.0, 53.9, 20.7, 0.4, 19.7, 8.0, 0.0);
    k.v[IN_FP64_PIPE] = 85.0;
    k.v[IN_FLOP_FP64] = 1e12;
    struct diagnosis d = run(k);
    assert_string_equal(d.limiter, "FP64 pipe");
    assert_string_equal(d.evidence, "FP64 pipe busy 85 % of cycles, issue slots 20 %, L1/shared 38 %");
}

/* A run from before the split measured the FP64 and tensor pipes as one figure (sm__pipe_shared_cycles_active):
 * it is diagnosed with that figure and its name, not as an FP64 or a tensor pipe it cannot tell apart (the
 * reference run's cublas_fp64 at W = 4096: 97.84 %; tiled_32_fp64: 14.66 %). */
static void a_run_before_the_split_keeps_its_fp64_tensor_pipe(void **state)
{
    (void)state;
    struct kernel_figures k = figures(38.0, 53.9, 20.7, 0.4, 19.7, 8.0, 0.0);
    k.v[IN_FP64_PIPE] = k.v[IN_TENSOR_PIPE] = NAN;
    k.v[IN_FP64_TENSOR_PIPE] = 97.84;
    struct diagnosis d = run(k);
    assert_string_equal(d.limiter, "FP64/tensor pipe");
    assert_string_equal(d.evidence, "FP64/tensor pipe busy 98 % of cycles, issue slots 20 %, L1/shared 38 %");
    k = figures(95.9, 20.5, 18.0, 1.86, 24.1, 8.0, 0.0);
    k.v[IN_LOAD_EFFICIENCY] = 100.0;
    k.v[IN_FP64_PIPE] = k.v[IN_TENSOR_PIPE] = NAN;
    k.v[IN_FP64_TENSOR_PIPE] = 14.66;
    k.v[IN_FLOP_FP64] = 137438953472.0;
    assert_string_equal(run(k).evidence, "L1/shared at 96 % of peak; FP64/tensor pipe 15 %, DRAM 18 %");
    /* Neither figure: no limiter can be named. */
    k.v[IN_FP64_TENSOR_PIPE] = NAN;
    assert_string_equal(run(k).limiter, "not collected");
}

/* A cuBLAS bf16 GEMM (figures of the H100 field notes: 4096^3, tensor pipe 94.7 %): named for the tensor pipe, its
 * evidence the type, the TFLOP/s (612,000 GFLOP/s given) and the share of the measured bf16 roof (78 % given). */
static void a_tensor_bound_gemm_is_named_for_the_tensor_pipe(void **state)
{
    (void)state;
    struct kernel_figures k = figures(55.0, 40.0, 30.0, 3.0, 18.0, 4.0, 0.0);
    k.v[IN_TENSOR_PIPE] = 94.7;
    k.v[IN_TENSOR_GFLOPS] = 612000.0;
    k.v[IN_TENSOR_ROOF_PCT] = 78.0;
    k.tensor_type = "bf16";
    struct diagnosis d = run(k);
    assert_string_equal(d.limiter, "tensor pipe");
    assert_string_equal(d.evidence, "bf16 tensor 612 TFLOP/s, 78 % of the measured bf16 roof; tensor pipe 95 % of "
                                    "cycles");
}

/* Without a measured roof of its type the share is never made up: said so. */
static void without_a_roof_of_its_type_no_share_is_given(void **state)
{
    (void)state;
    struct kernel_figures k = figures(55.0, 40.0, 30.0, 3.0, 18.0, 4.0, 0.0);
    k.v[IN_TENSOR_PIPE] = 97.8;
    k.v[IN_TENSOR_GFLOPS] = 55300.0;
    k.tensor_type = "fp64"; /* cuBLAS's DGEMM: DMMA, for which memscope measures no roof */
    struct diagnosis d = run(k);
    assert_string_equal(d.limiter, "tensor pipe");
    assert_string_equal(d.evidence, "fp64 tensor 55 TFLOP/s, no measured fp64 roof; tensor pipe 98 % of cycles");
    k.tensor_type = NULL; /* the tensor group not collected: no type, no rate */
    k.v[IN_TENSOR_GFLOPS] = NAN;
    d = run(k);
    assert_string_equal(d.limiter, "tensor pipe");
    /* said once: the training script's cuBLAS GEMMs read "no tensor type (...), no tensor type (...); ..." */
    assert_string_equal(d.evidence, "no tensor type (tensor operations not collected), so no share of a roof; "
                                    "tensor pipe 98 % of cycles");
    k.tensor_type = "bf16"; /* counted, but not its rate */
    assert_non_null(strstr(run(k).evidence, "bf16 tensor, tensor_gflops not collected"));
}

/* A tensor kernel bound elsewhere quotes the tensor pipe as its arithmetic, not the FMA pipe its softmax keeps
 * busy (flash attention in the field notes: tensor pipe 40 %). */
static void a_tensor_kernel_s_evidence_quotes_the_tensor_pipe(void **state)
{
    (void)state;
    struct kernel_figures k = figures(80.0, 20.0, 10.0, 35.0, 30.0, 4.0, 0.0);
    k.v[IN_TENSOR_PIPE] = 40.0;
    k.v[IN_FLOP_FP32] = 1e9;
    k.tensor_type = "fp16";
    assert_string_equal(run(k).evidence, "L1/shared at 80 % of peak; tensor pipe 40 %, DRAM 10 %");
}

/* A wgmma kernel that waits on its operands says so: the gmma stall (CUPTI's warpgroup_arrive) named where it is
 * the top reason, and its share added where it is not. */
static void a_wgmma_kernel_waiting_on_its_operands_says_so(void **state)
{
    (void)state;
    struct kernel_figures k = figures(30.0, 20.0, 10.0, 5.0, 15.0, 4.0, 0.0);
    k.v[IN_TENSOR_PIPE] = 40.0;
    k.tensor_type = "bf16";
    struct diagnosis d = run(k);
    assert_string_equal(d.limiter, "latency");
    diagnosis_add_stall(&d, "warpgroup_arrive", 52.4, 52.4);
    assert_non_null(strstr(d.evidence, "; top stall reason warpgroup_arrive (52 % of samples: warps wait for their "
                                       "wgmma's operands)"));
    assert_null(strstr(d.evidence, "in 52 %"));
    d = run(k);
    diagnosis_add_stall(&d, "long_scoreboard", 41.0, 12.2);
    assert_non_null(strstr(d.evidence, "; top stall reason long_scoreboard (41 % of samples); warps wait for their "
                                       "wgmma's operands in 12 % of samples (warpgroup_arrive)"));
    struct diagnosis none = run(k), unsampled = run(k);
    diagnosis_add_stall(&none, "long_scoreboard", 41.0, 0.0);
    diagnosis_add_stall(&unsampled, "long_scoreboard", 41.0, NAN);
    assert_null(strstr(none.evidence, "wgmma"));
    assert_null(strstr(unsampled.evidence, "wgmma"));
}

static void tiled_transposed_is_bound_by_bank_conflicts(void **state)
{
    (void)state;
    /* conflict share: 32,505,856 excess of 101,711,872 shared wavefronts (the source group, W = 1024) */
    struct diagnosis d = run(figures(97.0, 11.0, 9.5, 8.3, 28.8, 4.0, 32.0));
    assert_string_equal(d.limiter, "bank conflicts");
    assert_non_null(strstr(d.evidence, "32 % of shared wavefronts are bank conflicts"));
    assert_non_null(strstr(d.evidence, "L1/shared at 97 %"));
}

static void tiled_32_is_bound_by_shared_memory_traffic(void **state)
{
    (void)state;
    struct diagnosis d = run(figures(88.7, 19.0, 16.6, 14.4, 41.2, 4.0, 0.0));
    assert_string_equal(d.limiter, "L1/shared bandwidth");
    assert_non_null(strstr(d.evidence, "L1/shared at 89 % of peak"));
}

static void the_best_ladder_kernel_is_bound_by_instruction_issue(void **state)
{
    (void)state;
    struct diagnosis d = run(figures(50.8, 9.6, 3.5, 72.5, 76.7, NAN, 0.0)); /* halfwarp_lanes: no LDG */
    assert_string_equal(d.limiter, "instruction issue");
    assert_non_null(strstr(d.evidence, "issue slots 77 % used, FMA pipe 72 %"));
}

/* Two issue-bound kernels of the reference run (icache_fit and cuBLAS at W = 4096) read apart by their figures
 * alone: the evidence makes no claim that every issue-bound kernel would share. */
static void issue_bound_evidence_is_figures_only(void **state)
{
    (void)state;
    struct diagnosis fit = run(figures(52.2, 9.6, 3.4, 74.6, 79.4, NAN, 0.0));
    struct diagnosis cublas = run(figures(61.7, 21.0, 4.4, 79.8, 90.1, NAN, 0.0));
    assert_string_equal(fit.evidence, "issue slots 79 % used, FMA pipe 75 %, L1/shared 52 %");
    assert_string_equal(cublas.evidence, "issue slots 90 % used, FMA pipe 80 %, L1/shared 62 %");
}

/* The warps' top stall reason, from the stalls group, follows the figures; without it nothing is added. */
static void the_top_stall_reason_is_added_where_sampled(void **state)
{
    (void)state;
    struct diagnosis d = run(figures(61.4, 9.0, 3.0, 68.4, 76.3, NAN, 12.5)); /* pipelined */
    diagnosis_add_stall(&d, "not_selected", 44.08, NAN);
    assert_string_equal(d.evidence, "issue slots 76 % used, FMA pipe 68 %, L1/shared 61 %; "
                                    "top stall reason not_selected (44 % of samples)");
    struct diagnosis unsampled = run(figures(61.4, 9.0, 3.0, 68.4, 76.3, NAN, 12.5));
    diagnosis_add_stall(&unsampled, "", 44.0, NAN);
    diagnosis_add_stall(&unsampled, NULL, 44.0, NAN);
    diagnosis_add_stall(&unsampled, "selected", NAN, NAN);
    assert_string_equal(unsampled.evidence, "issue slots 76 % used, FMA pipe 68 %, L1/shared 61 %");
}

static void the_busiest_unit_decides_not_the_order_of_the_rules(void **state)
{
    (void)state;
    /* L1 above the threshold but the FMA pipe busier: compute, not L1 */
    struct diagnosis d = run(figures(65.0, 10.0, 5.0, 80.0, 70.0, 4.0, 40.0));
    assert_string_equal(d.limiter, "FMA pipe");
}

static void a_streaming_kernel_is_bound_by_dram(void **state)
{
    (void)state;
    assert_string_equal(run(figures(30.0, 45.0, 91.0, 1.0, 5.0, 4.0, 0.0)).limiter, "DRAM bandwidth");
}

static void an_l2_resident_stream_is_bound_by_l2(void **state)
{
    (void)state;
    assert_string_equal(run(figures(40.0, 85.0, 10.0, 1.0, 5.0, 4.0, 0.0)).limiter, "L2 bandwidth");
}

/* The pathology corpus's copies on the H100 (at 4302ff0): L2 69.2 %, DRAM 62.3 %, L2 hit rate 50.4 % (reads miss,
 * writes allocate): the L2 carries the DRAM's bytes, and DRAM is named. On the H200 (reference run at 7dd9a9b), whose
 * DRAM is faster beside the same L2, a float4 stream reads L2 84.8 %, DRAM 71.6 %, hit rate 50.8 %: the DRAM's too;
 * the scalar copy, L2 64.2 %, DRAM 47.0 %, keeps too few bytes in flight to busy its DRAM: latency. Its
 * L2-resident stream: L2 79.8 %, DRAM 3.2 %, hit rate 97.7 %: the L2's. A GEMM's L2 (hits) at 70 % with DRAM at
 * 62 % stays the L2's. */
static void an_l2_that_mostly_misses_is_the_drams_shadow(void **state)
{
    (void)state;
    struct kernel_figures copy = figures(17.5, 69.2, 62.3, 4.8, 15.2, 4.0, 0.0);
    copy.v[IN_L2_HIT_RATE] = 50.4;
    assert_string_equal(run(copy).limiter, "DRAM bandwidth");
    struct kernel_figures h200_stream = figures(30.8, 84.8, 71.6, 4.8, 6.1, 4.0, 0.0);
    h200_stream.v[IN_L2_HIT_RATE] = 50.8;
    assert_string_equal(run(h200_stream).limiter, "DRAM bandwidth");
    struct kernel_figures h200_copy = figures(19.6, 64.2, 47.0, 4.8, 15.2, 4.0, 0.0);
    h200_copy.v[IN_L2_HIT_RATE] = 50.5;
    assert_string_equal(run(h200_copy).limiter, "latency");
    struct kernel_figures stream = figures(33.2, 79.8, 3.2, 18.6, 49.8, 4.0, 0.0);
    stream.v[IN_L2_HIT_RATE] = 97.7;
    assert_string_equal(run(stream).limiter, "L2 bandwidth");
    struct kernel_figures hits = figures(30.0, 70.0, 62.0, 20.0, 30.0, 4.0, 0.0);
    hits.v[IN_L2_HIT_RATE] = 80.0;
    assert_string_equal(run(hits).limiter, "L2 bandwidth");
    struct kernel_figures far = figures(30.0, 70.0, 45.0, 20.0, 30.0, 4.0, 0.0); /* DRAM under 70 % of the L2 */
    far.v[IN_L2_HIT_RATE] = 40.0;
    assert_string_equal(run(far).limiter, "L2 bandwidth");
}

/* Without the source group, shared excess is the smaller of two over-counts (docs/metrics.md): tiled_32's estimate
 * at W = 4096 was 536,870,912 where it has no conflict, its hardware counter tens of thousands. */
static void shared_excess_without_the_source_group_is_the_smaller_over_count(void **state)
{
    (void)state;
    assert_float_equal(diagnosis_shared_excess_bound(536870912.0, 40000.0), 40000.0, 0.0);
    assert_float_equal(diagnosis_shared_excess_bound(2956800.0, 3100000.0), 2956800.0, 0.0);
    assert_float_equal(diagnosis_shared_excess_bound(100.0, NAN), 100.0, 0.0);
    assert_float_equal(diagnosis_shared_excess_bound(-3.0, 10.0), 0.0, 0.0);
    assert_true(isnan(diagnosis_shared_excess_bound(NAN, 5.0)));
}

static void below_the_threshold_everywhere_is_latency(void **state)
{
    (void)state;
    struct diagnosis d = run(figures(20.0, 10.0, 5.0, 30.0, 59.9, 4.0, 0.0));
    assert_string_equal(d.limiter, "latency");
    assert_non_null(strstr(d.evidence, "busiest 60 %"));
    assert_non_null(strstr(d.evidence, "occupancy 50 %"));
}

/* Without the shared and global groups an L1/shared limit cannot be refined, and the evidence says so. */
static void unjudged_refinements_and_missing_occupancy_are_said(void **state)
{
    (void)state;
    struct kernel_figures k = figures(97.0, 11.0, 9.5, 8.3, 28.8, 4.0, NAN);
    k.v[IN_LOAD_EFFICIENCY] = NAN;
    struct diagnosis d = run(k);
    assert_string_equal(d.limiter, "L1/shared bandwidth");
    assert_non_null(strstr(d.evidence, "bank conflicts not judged (conflict_share_pct not collected)"));
    assert_non_null(strstr(d.evidence, "uncoalesced global loads not judged (global_load_efficiency not collected)"));
    k = figures(20.0, 10.0, 5.0, 30.0, 40.0, 4.0, 0.0);
    k.v[IN_OCCUPANCY] = NAN;
    d = run(k);
    assert_null(strstr(d.evidence, "nan"));
    assert_non_null(strstr(d.evidence, "achieved occupancy not collected"));
}

static void without_the_sol_group_there_is_no_diagnosis(void **state)
{
    (void)state;
    struct kernel_figures k = figures(NAN, NAN, NAN, NAN, NAN, 16.5, 50.0);
    assert_string_equal(run(k).limiter, "not collected");
}

/* CUPTI may give one figure no value (written empty): no unit can be named busiest without it. */
static void a_speed_of_light_figure_without_a_value_is_said_so(void **state)
{
    (void)state;
    struct diagnosis d = run(figures(80.0, NAN, 30.0, 20.0, 10.0, 16.5, 50.0));
    assert_string_equal(d.limiter, "not collected");
    assert_non_null(strstr(d.evidence, "a speed-of-light figure had no value"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(naive_uncoalesced_is_bound_by_uncoalesced_loads),
        cmocka_unit_test(a_shown_figure_without_a_value_reads_not_collected),
        cmocka_unit_test(coalesced_fp64_loads_are_not_called_uncoalesced),
        cmocka_unit_test(an_fp64_kernel_s_evidence_quotes_the_fp64_pipe),
        cmocka_unit_test(a_busy_fp64_pipe_is_its_own_limiter),
        cmocka_unit_test(a_run_before_the_split_keeps_its_fp64_tensor_pipe),
        cmocka_unit_test(a_tensor_bound_gemm_is_named_for_the_tensor_pipe),
        cmocka_unit_test(without_a_roof_of_its_type_no_share_is_given),
        cmocka_unit_test(a_tensor_kernel_s_evidence_quotes_the_tensor_pipe),
        cmocka_unit_test(a_wgmma_kernel_waiting_on_its_operands_says_so),
        cmocka_unit_test(tiled_transposed_is_bound_by_bank_conflicts),
        cmocka_unit_test(tiled_32_is_bound_by_shared_memory_traffic),
        cmocka_unit_test(the_best_ladder_kernel_is_bound_by_instruction_issue),
        cmocka_unit_test(issue_bound_evidence_is_figures_only),
        cmocka_unit_test(the_top_stall_reason_is_added_where_sampled),
        cmocka_unit_test(the_busiest_unit_decides_not_the_order_of_the_rules),
        cmocka_unit_test(a_streaming_kernel_is_bound_by_dram),
        cmocka_unit_test(an_l2_resident_stream_is_bound_by_l2),
        cmocka_unit_test(an_l2_that_mostly_misses_is_the_drams_shadow),
        cmocka_unit_test(shared_excess_without_the_source_group_is_the_smaller_over_count),
        cmocka_unit_test(below_the_threshold_everywhere_is_latency),
        cmocka_unit_test(unjudged_refinements_and_missing_occupancy_are_said),
        cmocka_unit_test(without_the_sol_group_there_is_no_diagnosis),
        cmocka_unit_test(a_speed_of_light_figure_without_a_value_is_said_so),
    };
    return cmocka_run_group_tests_name("diagnosis", tests, NULL, NULL);
}
