/*
 * Each finding rule's condition and estimated gain from fixture figures, worked out here by hand from the formula
 * docs/metrics.md gives (never by calling the rule), and the ranking: a kernel whose loads are coalesced and whose
 * stores use 12.5 % of their sectors, which the limiter alone calls "L2 bandwidth" (H100, issue 40), gets
 * uncoalesced_global_stores first and l2_bound after it. Also the occupancy calculator against the H100's answers.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/diagnose/findings.h"
#include "../../harness/diagnose/occupancy.h"

/* An H100 SXM's SM (cudaDeviceProp on the GPU machine): 64 warps, 32 blocks, 64 Ki registers, 228 KiB of shared
 * memory, 1 KiB reserved per block; 132 SMs. */
static const struct sm_limits h100 = {64, 32, 65536, 233472, 1024};
#define H100_SMS 132

/* A kernel nothing is wrong with but what a test sets: every unit at 30 % (the XU pipe idle), coalesced float
 * accesses (4 sectors per request), no conflicts, spills, divergence, predication, conversions or atomics, 1320 blocks of 256 threads at 32 registers (8 per SM, 1.25
 * waves: the tests that need none set 1056), 1 ms long. */
static void healthy(double v[DIAGNOSIS_INPUT_COUNT])
{
    for (int i = 0; i < DIAGNOSIS_INPUT_COUNT; ++i)
        v[i] = 0.0;
    v[IN_SOL_L1] = v[IN_SOL_L2] = v[IN_SOL_DRAM] = v[IN_FMA_PIPE] = v[IN_ISSUE_SLOTS] = 30.0;
    v[IN_SOL_SM] = v[IN_SOL_MEMORY] = 30.0;
    v[IN_FP64_TENSOR_PIPE] = v[IN_TENSOR_GFLOPS] = v[IN_TENSOR_ROOF_PCT] = NAN;
    v[IN_OCCUPANCY] = 90.0;
    v[IN_LOAD_EFFICIENCY] = v[IN_STORE_EFFICIENCY] = 100.0;
    v[IN_SECTORS_PER_REQUEST_LD] = v[IN_SECTORS_PER_REQUEST_ST] = 4.0;
    v[IN_LD_REQUESTS] = v[IN_ST_REQUESTS] = 1e6;
    v[IN_LD_SECTORS] = v[IN_ST_SECTORS] = 4e6;
    v[IN_SHARED_WAVEFRONTS] = 1e6;
    v[IN_ACTIVE_LANES] = v[IN_PREDICATED_ON_LANES] = 32.0;
    v[IN_ATOMIC_SLICE_SKEW] = 1.0;
    v[IN_DURATION_MS] = 1.0;
    v[IN_BLOCKS_LAUNCHED] = 1056;
    v[IN_SM_COUNT] = H100_SMS;
    v[IN_THREADS_PER_BLOCK] = 256;
    v[IN_REGISTERS] = 32;
    v[IN_BLOCKS_BY_REGISTERS] = v[IN_BLOCKS_BY_SHARED] = 8; /* registers: 65536 / (32 x 32) / 8 warps */
    v[IN_BLOCKS_BY_BLOCK_SIZE] = 8;                         /* 64 warps / 8 */
    v[IN_SM_MAX_WARPS] = 64;
}

/* The five units healthy() sets, at pct: a bound finding's gain is held to 100 less the busiest other unit. */
static void units_at(double v[DIAGNOSIS_INPUT_COUNT], double pct)
{
    v[IN_SOL_L1] = v[IN_SOL_L2] = v[IN_SOL_DRAM] = v[IN_FMA_PIPE] = v[IN_ISSUE_SLOTS] = pct;
}

static int findings_of(const double *v, const struct finding_lines *lines, struct finding *f)
{
    return diagnose_findings(v, NULL, lines, f, FINDING_MAX);
}

static const struct finding *find(const struct finding *f, int n, const char *cause)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(f[i].cause, cause) == 0)
            return &f[i];
    return NULL;
}

static void expect_gain(const struct finding *f, int n, const char *cause, double gain)
{
    const struct finding *x = find(f, n, cause);
    if (!x)
        fail_msg("no %s finding", cause);
    if (fabs(x->gain_pct - gain) > 1e-6)
        fail_msg("%s: estimated gain %.6f, expected %.6f", cause, x->gain_pct, gain);
}

static void a_healthy_kernel_has_only_its_bound_finding(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    int n = findings_of(v, NULL, f);
    assert_int_equal(n, 1);
    assert_string_equal(f[0].cause, "latency_bound");
    assert_true(f[0].global);
    assert_float_equal(f[0].gain_pct, 70.0, 1e-9); /* the busiest unit at 30 % */
}

/* The issue's kernel: loads coalesced (4 sectors a request), stores 32 sectors a request at 12.5 %, L2 at 75 %. */
static void twelve_and_a_half_percent_stores_come_before_l2_bound(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    struct diagnosis d;
    healthy(v);
    v[IN_SOL_L2] = 75.0;
    v[IN_STORE_EFFICIENCY] = 12.5;
    v[IN_SECTORS_PER_REQUEST_ST] = 32.0;
    v[IN_ST_SECTORS] = 32e6;
    diagnose(v, NULL, &d);
    assert_string_equal(d.limiter, "L2 bandwidth"); /* the limiter alone names the symptom */
    int n = findings_of(v, NULL, f);
    assert_true(n >= 2);
    assert_string_equal(f[0].cause, "uncoalesced_global_stores");
    assert_true(f[0].global);
    /* L2 75 % x (28 excess of 36 sectors a request pair) */
    assert_float_equal(f[0].gain_pct, 75.0 * 28.0 / 36.0, 1e-9);
    assert_non_null(strstr(f[0].evidence, "global stores use 12.5 % of the bytes their sectors carry"));
    assert_string_equal(f[1].cause, "l2_bound");
    assert_float_equal(f[1].gain_pct, 75.0 - 75.0 * 28.0 / 36.0, 1e-9);
    assert_string_equal(f[0].where, ""); /* no source group: no line */
}

/* Even where the cause explains less of the unit than it leaves, it says how to relieve it: it ranks first. */
static void a_bound_finding_never_ranks_before_a_material_cause_on_its_unit(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_L2] = 90.0;
    v[IN_STORE_EFFICIENCY] = 12.5;
    v[IN_ST_SECTORS] = 8e6;      /* 8 of 12 sectors; stores 1/4 the loads' requests */
    v[IN_ST_REQUESTS] = 0.25e6;  /* excess 7e6 of 12e6: gain 52.5, the L2's rest 37.5 */
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "uncoalesced_global_stores");
    expect_gain(f, n, "uncoalesced_global_stores", 90.0 * 7.0 / 12.0);
    assert_string_equal(f[1].cause, "l2_bound");
    v[IN_ST_SECTORS] = 1e6; /* excess 0.875e6 of 5e6: gain 15.75 against the L2's 74.25, and still first */
    v[IN_ST_REQUESTS] = 1e6 / 32.0;
    n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "uncoalesced_global_stores");
    assert_string_equal(f[1].cause, "l2_bound");
    /* 74.25 points unexplained, but relieving the L2 saves at most the 70 % the next units (30 %) leave */
    assert_float_equal(f[1].gain_pct, 70.0, 1e-9);
    units_at(v, 10.0);
    v[IN_SOL_L2] = 90.0;
    n = findings_of(v, NULL, f);
    assert_float_equal(f[1].gain_pct, 90.0 - 90.0 * 0.875 / 5.0, 1e-9); /* 74.25 within the 90 % headroom */
}

static void uncoalesced_loads_waste_the_busiest_memory_unit(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    units_at(v, 10.0);
    v[IN_SOL_L1] = 99.0; /* naive_uncoalesced: the sectors hit in L1 */
    v[IN_LOAD_EFFICIENCY] = 12.5;
    v[IN_LD_SECTORS] = 32e6;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "uncoalesced_global_loads");
    expect_gain(f, n, "uncoalesced_global_loads", 99.0 * 28.0 / 36.0);
    assert_string_equal(f[1].cause, "l1_bound");
    assert_non_null(strstr(f[0].evidence, "L1/shared at 99 % of peak"));
}

static void strided_and_misaligned_are_told_apart_by_excess_sectors_per_request(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_DRAM] = 80.0;
    v[IN_LOAD_EFFICIENCY] = 50.0; /* stride 2: 8 sectors a request, 4 of them excess */
    v[IN_LD_SECTORS] = 8e6;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "strided_global_access");
    expect_gain(f, n, "strided_global_access", 80.0 * 4.0 / 12.0);
    assert_null(find(f, n, "misaligned_global_access"));
    v[IN_LOAD_EFFICIENCY] = 80.0; /* offset by one float: 5 sectors a request, 1 excess */
    v[IN_LD_SECTORS] = 5e6;
    n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "misaligned_global_access");
    expect_gain(f, n, "misaligned_global_access", 80.0 * 1.0 / 9.0);
    assert_null(find(f, n, "strided_global_access"));
    v[IN_LOAD_EFFICIENCY] = 82.5; /* the naive lesson: broadcasts mixed with coalesced loads, 0.44 excess */
    v[IN_LD_SECTORS] = 2.5e6;
    n = findings_of(v, NULL, f);
    assert_null(find(f, n, "misaligned_global_access"));
    assert_null(find(f, n, "strided_global_access"));
}

/* The corpus's misaligned stream in the reference run's --validate on the H100 (at 9ca7d96): L2 79.5 %, DRAM 74.4 %,
 * L2 hit rate 43 %, so the limiter is DRAM; 5 sectors a load request, 4 a store, 2,621,440 and 2,097,152 sectors.
 * Its excess sectors cost the DRAM, so the cause comes first (it read dram_bound first, the cause costed on L2). */
static void a_misaligned_stream_costs_the_limiting_dram(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_L1] = 16.9, v[IN_SOL_L2] = 79.5, v[IN_SOL_DRAM] = 74.4, v[IN_FMA_PIPE] = 4.2, v[IN_ISSUE_SLOTS] = 20.3;
    v[IN_L2_HIT_RATE] = 43.2;
    v[IN_LOAD_EFFICIENCY] = 80.0, v[IN_SECTORS_PER_REQUEST_LD] = 5.0;
    v[IN_LD_SECTORS] = 2621440, v[IN_ST_SECTORS] = 2097152, v[IN_LD_REQUESTS] = v[IN_ST_REQUESTS] = 524288;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "misaligned_global_access");
    expect_gain(f, n, "misaligned_global_access", 74.4 * 524288.0 / (2621440.0 + 2097152.0));
    assert_string_equal(f[1].cause, "dram_bound");
}

/* The tensor ladder's ldmatrix rung at W = 4096 in the reference run on the H100 (at 9ca7d96): L1 at 96.8 %, its
 * LDSM lines 352,321,536 wavefronts beyond the ideal of 419,430,400 shared wavefronts, all of them loads now that an
 * LDSM counts as one (tests/source): the conflicts come first, at their share of L1's busy time (it read l1_bound). */
static void the_ldmatrix_rungs_conflicts_come_first(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_L1] = 96.8, v[IN_SOL_L2] = 11.8, v[IN_SOL_DRAM] = 3.0, v[IN_FMA_PIPE] = 1.0, v[IN_ISSUE_SLOTS] = 6.5;
    v[IN_TENSOR_PIPE] = 11.1;
    v[IN_SHARED_LD_EXCESS] = 352321536, v[IN_SHARED_ST_EXCESS] = 0, v[IN_SHARED_WAVEFRONTS] = 419430400;
    v[IN_CONFLICT_SHARE] = 100.0 * 352321536 / 419430400;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "shared_load_conflicts");
    expect_gain(f, n, "shared_load_conflicts", 96.8 * 352321536.0 / 419430400.0);
    assert_string_equal(f[1].cause, "l1_bound");
}

static void shared_conflicts_are_their_share_times_l1(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_L1] = 80.0; /* tiled_transposed: one store 32-way, loads clean */
    v[IN_SHARED_ST_EXCESS] = 31e6;
    v[IN_SHARED_WAVEFRONTS] = 64e6;
    v[IN_SHARED_LD_EXCESS] = 0.5e6;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "shared_store_conflicts");
    expect_gain(f, n, "shared_store_conflicts", 80.0 * 31.0 / 64.0);
    assert_null(find(f, n, "shared_load_conflicts")); /* 0.8 % of wavefronts: under the 2 % */
    v[IN_SHARED_LD_EXCESS] = 16e6;
    n = findings_of(v, NULL, f);
    expect_gain(f, n, "shared_load_conflicts", 80.0 * 16.0 / 64.0);
}

static void the_line_with_the_most_excess_is_named(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    struct finding_lines lines;
    finding_lines_init(&lines);
    finding_lines_add(&lines, &(struct line_counts){"/src/k.cu", 10, 4e6, 0, 0, 0, 0, 0, 0, 0});
    finding_lines_add(&lines, &(struct line_counts){"/src/k.cu", 12, 0, 32e6, 28e6, 0, 0, 0, 0, 0});
    finding_lines_add(&lines, &(struct line_counts){"/src/k.cu", 14, 1e6, 1e6, 1e6, 0, 0, 0, 0, 0}); /* half each */
    healthy(v);
    v[IN_SOL_L2] = 75.0;
    v[IN_STORE_EFFICIENCY] = 12.5;
    v[IN_ST_SECTORS] = 32e6;
    findings_of(v, &lines, f);
    assert_string_equal(f[0].where, "k.cu:12");
    assert_float_equal(lines.global_st.total, 28.5e6, 1e-3);
    assert_float_equal(lines.global_ld.total, 0.5e6, 1e-3);
    assert_string_equal(lines.global_ld.where, "k.cu:14");
}

static void local_memory_is_its_share_of_sectors(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_L1] = 70.0;
    v[IN_LOCAL_SECTORS] = 24e6; /* with 8e6 global: 75 % */
    v[IN_REGISTERS] = 255;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "local_memory_spills");
    expect_gain(f, n, "local_memory_spills", 70.0 * 0.75);
}

static void divergence_is_the_idle_lanes_share_of_the_busier_issue_unit(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_FMA_PIPE] = 80.0;
    v[IN_ACTIVE_LANES] = 16.0;
    v[IN_DIVERGENT_BRANCHES] = 1e6;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "branch_divergence");
    assert_true(f[0].global); /* the FMA pipe is the limiter */
    expect_gain(f, n, "branch_divergence", 80.0 * 0.5);
    v[IN_DIVERGENT_BRANCHES] = 0.0; /* idle lanes without a divergent branch: a partial block, not divergence */
    n = findings_of(v, NULL, f);
    assert_null(find(f, n, "branch_divergence"));
}

static void atomics_on_one_address_contend(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_ST_REQUESTS] = 0;
    v[IN_ST_SECTORS] = 0;
    v[IN_GLOBAL_ATOMICS] = 1e6;
    v[IN_ATOMIC_BUSIEST_SLICE] = 1e6;
    v[IN_ATOMIC_SLICE_SKEW] = 80.0; /* one slice of 80 takes them all */
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "atomic_contention");
    /* 1e6 x (1 - 1/80) sectors beyond an even spread at 1.37 a nanosecond: 0.7208 of the kernel's 1 ms */
    expect_gain(f, n, "atomic_contention", 100.0 * 1e6 * (1.0 - 1.0 / 80.0) / 1.37 / 1e6);
    v[IN_DURATION_MS] = 0.5; /* the same atomics in half the time: held to 1 - 1/80 */
    n = findings_of(v, NULL, f);
    expect_gain(f, n, "atomic_contention", 100.0 * (1.0 - 1.0 / 80.0));
    v[IN_DURATION_MS] = 1.0;
    v[IN_ATOMIC_SLICE_SKEW] = 1.2; /* spread: no contention */
    n = findings_of(v, NULL, f);
    assert_null(find(f, n, "atomic_contention"));
}

/* cuDNN's bf16 flash attention (field notes): about one atomic a block, a tile scheduler's counter. However few the
 * other accesses and however skewed, one a block is bookkeeping. */
static void one_atomic_a_block_is_no_contention(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_LD_REQUESTS] = v[IN_ST_REQUESTS] = v[IN_LD_SECTORS] = v[IN_ST_SECTORS] = 0;
    v[IN_BLOCKS_LAUNCHED] = 1156;
    v[IN_GLOBAL_ATOMICS] = v[IN_ATOMIC_BUSIEST_SLICE] = 1156;
    v[IN_ATOMIC_SLICE_SKEW] = 80.0;
    v[IN_DURATION_MS] = 0.0005 * 1156 / 1.37; /* so short that its one slice's atomics would be half its time */
    int n = findings_of(v, NULL, f);
    assert_null(find(f, n, "atomic_contention"));
}

/* cuBLAS's bf16 GEMM at 4096 in the reference run on the H100 (at 9ca7d96): 190 atomics on few addresses (skew
 * 54.1), no LSU global request (TMA), 295,482 shared wavefronts: a 0.06 % share, no finding (it read
 * atomic_contention first, 98 %, when global requests alone were the measure). */
static void a_few_atomics_beside_tma_are_no_contention(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_LD_REQUESTS] = v[IN_ST_REQUESTS] = v[IN_LD_SECTORS] = v[IN_ST_SECTORS] = 0;
    v[IN_SHARED_WAVEFRONTS] = 262524 + 32958;
    v[IN_GLOBAL_ATOMICS] = v[IN_ATOMIC_BUSIEST_SLICE] = 190;
    v[IN_BLOCKS_LAUNCHED] = 132;
    v[IN_ATOMIC_SLICE_SKEW] = 54.1;
    int n = findings_of(v, NULL, f);
    assert_null(find(f, n, "atomic_contention")); /* 190 x (1 - 1/54.1) / 1.37 ns: 0.014 % of 1 ms */
}

/* A folder that stored the blocks a kernel launched but not the SM's resources (a program's profile before
 * memscope-profile stored them) cannot judge the wave rules: they are named among the unjudged, beside the
 * occupancy rules, rather than passed over as if they had found nothing. */
static void the_wave_rules_without_the_sms_are_unjudged(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    char unjudged[512];
    healthy(v);
    v[IN_BLOCKS_LAUNCHED] = 1320; /* 1.25 waves: partial_last_wave applies where it is judged */
    assert_int_equal(findings_unjudged(v, unjudged, sizeof unjudged), 0);
    assert_string_equal(unjudged, "");
    v[IN_SM_COUNT] = NAN;
    assert_int_equal(findings_unjudged(v, unjudged, sizeof unjudged), 2);
    assert_string_equal(unjudged, "too_few_blocks, partial_last_wave");
    /* each limit on the blocks an SM holds alone: its occupancy rule and the partial wave, which needs all three */
    static const struct {
        int input;
        const char *unjudged;
    } limits[] = {{IN_BLOCKS_BY_REGISTERS, "occupancy_registers, partial_last_wave"},
                  {IN_BLOCKS_BY_SHARED, "occupancy_shared_memory, partial_last_wave"},
                  {IN_BLOCKS_BY_BLOCK_SIZE, "occupancy_block_size, partial_last_wave"}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; ++i) {
        healthy(v);
        v[limits[i].input] = NAN;
        assert_int_equal(findings_unjudged(v, unjudged, sizeof unjudged), 2);
        assert_string_equal(unjudged, limits[i].unjudged);
    }
}

/* 255 registers x 256 threads: 8160 registers a warp, given as 8192: 8 warps an SM, one block. */
static void the_occupancy_calculator_agrees_with_the_h100(void **state)
{
    (void)state;
    struct occupancy_limits o;
    occupancy_limits(&h100, 255, 0, 256, &o);
    assert_float_equal(o.by_registers, 1, 0);
    assert_float_equal(o.by_block_size, 8, 0);
    assert_float_equal(o.by_shared, 228, 0); /* only the 1 KiB reserve: 233472 / 1024 */
    occupancy_limits(&h100, 32, 48 * 1024, 256, &o);
    assert_float_equal(o.by_registers, 8, 0);
    assert_float_equal(o.by_shared, 4, 0); /* 49152 + 1024 per block: 4.65 */
    occupancy_limits(&h100, 16, 0, 32, &o);
    assert_float_equal(o.by_block_size, 32, 0); /* 32 blocks of one warp: half the SM's 64 warps */
    occupancy_limits(&h100, 40, 0, 768, &o);
    assert_float_equal(o.by_registers, 2, 0); /* 1280 a warp: 51 warps, 2 blocks of 24 */
    assert_float_equal(o.by_block_size, 2, 0);
    occupancy_limits(&h100, NAN, 0, 256, &o); /* a library's kernel: its registers are not known */
    assert_true(isnan(o.by_registers));
}

static void occupancy_names_the_resource_that_sets_it(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_BLOCKS_BY_REGISTERS] = 2; /* 25 % occupancy against 100 % */
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "occupancy_registers");
    expect_gain(f, n, "occupancy_registers", 70.0 * 0.75);
    assert_string_equal(f[1].cause, "latency_bound");
    assert_float_equal(f[1].gain_pct, 70.0 - 70.0 * 0.75, 1e-9);
    healthy(v);
    v[IN_BLOCKS_BY_SHARED] = 4;
    n = findings_of(v, NULL, f);
    expect_gain(f, n, "occupancy_shared_memory", 70.0 * 0.5);
    healthy(v);
    v[IN_THREADS_PER_BLOCK] = 32; /* 32 one-warp blocks: 50 %, registers and shared memory would allow 64 */
    v[IN_BLOCKS_LAUNCHED] = 8448; /* two waves of 32 x 132 */
    v[IN_BLOCKS_BY_BLOCK_SIZE] = 32;
    v[IN_BLOCKS_BY_REGISTERS] = v[IN_BLOCKS_BY_SHARED] = 64;
    n = findings_of(v, NULL, f);
    expect_gain(f, n, "occupancy_block_size", 70.0 * 0.5);
    assert_null(find(f, n, "occupancy_registers"));
    v[IN_BLOCKS_LAUNCHED] = H100_SMS; /* one warp per SM: the grid is short, not the block size */
    n = findings_of(v, NULL, f);
    assert_null(find(f, n, "occupancy_block_size"));
    assert_string_equal(f[0].cause, "latency_bound");
}

static void too_few_blocks_and_a_partial_wave(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_BLOCKS_LAUNCHED] = 33;
    int n = findings_of(v, NULL, f);
    expect_gain(f, n, "too_few_blocks", 75.0);
    healthy(v);
    v[IN_BLOCKS_LAUNCHED] = 1320; /* 1.25 waves of 1056 */
    n = findings_of(v, NULL, f);
    expect_gain(f, n, "partial_last_wave", 100.0 * (1.0 - 1.25 / 2.0));
    assert_null(find(f, n, "too_few_blocks"));
    v[IN_BLOCKS_LAUNCHED] = 2112; /* whole waves */
    n = findings_of(v, NULL, f);
    assert_null(find(f, n, "partial_last_wave"));
    /* the corpus's one block past a full wave, on a kernel the FMA pipe bounds: idle SMs lower every unit's share,
     * so the tail counts on the FMA pipe and comes first */
    v[IN_BLOCKS_LAUNCHED] = 1057;
    v[IN_FMA_PIPE] = 63.0;
    n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "partial_last_wave");
    assert_true(f[0].global);
    expect_gain(f, n, "partial_last_wave", 100.0 * (1.0 - (1057.0 / 1056.0) / 2.0));
    assert_string_equal(f[1].cause, "fma_bound");
    assert_float_equal(f[1].gain_pct, 63.0 - 100.0 * (1.0 - (1057.0 / 1056.0) / 2.0), 1e-9);
}

/* The issue's elementwise kernel: DRAM at 76 %, 5.17 waves whose last fills 17 % of the slots. By empty slots the
 * tail read 13.8 % and came first; a memory-bound tail costs only the bandwidth it leaves idle (the 24 % DRAM left):
 * 13.8 % x 0.24 = 3.3 %, below the 5 % that would put it before dram_bound. */
static void a_memory_bound_tail_costs_the_bandwidth_it_leaves_idle(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_DRAM] = 76.0;
    v[IN_BLOCKS_LAUNCHED] = 5.17 * 1056;
    int n = findings_of(v, NULL, f);
    double empty = 1.0 - 5.17 / 6.0;
    expect_gain(f, n, "partial_last_wave", 100.0 * empty * (1.0 - 0.76));
    assert_string_equal(f[0].cause, "dram_bound");
    assert_non_null(strstr(find(f, n, "partial_last_wave")->evidence, "only the bandwidth the tail leaves idle"));
    v[IN_SOL_DRAM] = 30.0; /* not memory-bound: every empty slot counts */
    v[IN_FMA_PIPE] = 76.0;
    n = findings_of(v, NULL, f);
    expect_gain(f, n, "partial_last_wave", 100.0 * empty);
}

/* The issue's reduction: `if (tid % (2 * s) == 0)` made predication: no divergent branch target, 31.9 of 32 lanes
 * active, half of them predicated off at the add. Divergence cannot see it; the predicated-on lanes can. */
static void predicated_lanes_are_seen_where_divergence_is_not(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_ISSUE_SLOTS] = 77.0;
    v[IN_ACTIVE_LANES] = 31.9;
    v[IN_PREDICATED_ON_LANES] = 19.9;
    int n = findings_of(v, NULL, f);
    assert_null(find(f, n, "branch_divergence"));
    assert_string_equal(f[0].cause, "predicated_off_lanes");
    expect_gain(f, n, "predicated_off_lanes", 77.0 * 12.0 / 32.0);
    assert_non_null(strstr(f[0].evidence, "31.9 of 32 lanes active per warp instruction, 19.9 of them not "
                                          "predicated off"));
    v[IN_PREDICATED_ON_LANES] = 30.5; /* 1.4 lanes: the odd guard, not a pattern */
    n = findings_of(v, NULL, f);
    assert_null(find(f, n, "predicated_off_lanes"));
    v[IN_PREDICATED_ON_LANES] = NAN; /* a run before the counter: not judged */
    n = findings_of(v, NULL, f);
    assert_null(find(f, n, "predicated_off_lanes"));
}

/* With the source group, predication and conversions name their lines: the modulo's line converts (I2F, F2I around a
 * MUFU.RCP), the guarded add's line has the lanes predicated off. A line without a file (no line table) counts in
 * the total only. */
static void predication_and_conversions_name_their_lines(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    struct finding_lines lines;
    finding_lines_init(&lines);
    finding_lines_add(&lines, &(struct line_counts){.file = "", .line = 0, .conversions = 1e6});
    assert_false(lines.placed); /* counted, not placed: a kernel without a line table */
    finding_lines_add(&lines, &(struct line_counts){.file = "/src/reduce.cu", .line = 21, .conversions = 2e6});
    finding_lines_add(&lines, &(struct line_counts){.file = "/src/reduce.cu", .line = 22, .predicated_off_lanes = 8e6});
    finding_lines_add(&lines, &(struct line_counts){.file = "", .line = 0, .predicated_off_lanes = 9e6});
    healthy(v);
    v[IN_ISSUE_SLOTS] = 77.0;
    v[IN_ACTIVE_LANES] = 31.9;
    v[IN_PREDICATED_ON_LANES] = 19.9;
    v[IN_XU_PIPE] = 60.0;
    v[IN_CONVERSIONS] = 2e6;
    v[IN_XU_CONVERSION_SHARE] = 66.7;
    int n = findings_of(v, &lines, f);
    assert_string_equal(find(f, n, "predicated_off_lanes")->where, "reduce.cu:22");
    assert_string_equal(find(f, n, "type_conversions")->where, "reduce.cu:21");
    assert_float_equal(lines.predicated_off.total, 17e6, 0.0);
    assert_true(lines.placed);
    n = findings_of(v, NULL, f); /* no source group: no line */
    assert_string_equal(find(f, n, "type_conversions")->where, "");
}

/* Integer modulo by a variable compiles to I2F, MUFU.RCP and F2I: conversions on the XU pipe. */
static void conversions_cost_the_xu_pipe_they_keep_busy(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_ISSUE_SLOTS] = 77.0;
    v[IN_XU_PIPE] = 60.0;
    v[IN_CONVERSIONS] = 268e6;
    v[IN_XU_CONVERSION_SHARE] = 66.7;
    v[IN_FLOP_FP32] = 16.7e6;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "type_conversions");
    expect_gain(f, n, "type_conversions", 60.0 * 0.667);
    assert_non_null(strstr(f[0].evidence, "268000000 type conversions"));
    /* issue_bound after it: 77 points, but relieving the issue slots saves at most what the XU pipe's 60 % leaves */
    assert_string_equal(f[1].cause, "issue_bound");
    assert_float_equal(f[1].gain_pct, 40.0, 1e-9);
    /* cuDNN's flash attention on the H200 (this commit): its conversions pack FP32 results into bf16 for the next
     * product; a kernel with tensor work is not judged by them */
    n = diagnose_findings(v, "bf16", NULL, f, FINDING_MAX);
    assert_null(find(f, n, "type_conversions"));
    v[IN_CONVERSIONS] = 0.0; /* an XU pipe busy with special functions alone: no conversion finding */
    v[IN_XU_CONVERSION_SHARE] = 0.0;
    n = findings_of(v, NULL, f);
    assert_null(find(f, n, "type_conversions"));
}

/* The corpus's double literal on the H200 (this commit): its F2F conversions keep the XU pipe at 93 % while the
 * issue slots are at 24 %; fixing it saved 93 %. The FP64 rule names the cause, with the XU pipe's share as its
 * gain, and no type_conversions finding repeats it. */
static void a_double_literal_s_conversions_are_the_fp64_path_s(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    units_at(v, 1.0);
    v[IN_ISSUE_SLOTS] = 24.3;
    v[IN_FMA_PIPE] = 5.9;
    v[IN_XU_PIPE] = 93.4;
    v[IN_FLOP_FP32] = v[IN_FLOP_FP64] = 1.1e9;
    v[IN_CONVERSIONS] = 2.2e9;
    v[IN_CONVERSIONS_PER_FP64_OP] = 2.0;
    v[IN_XU_CONVERSION_SHARE] = 100.0;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "fp64_in_fp32_kernel");
    expect_gain(f, n, "fp64_in_fp32_kernel", 93.4);
    assert_non_null(strstr(f[0].evidence, "the conversions keep the XU pipe at 93 %"));
    assert_null(find(f, n, "type_conversions"));
}

/* A kernel whose limiter could not be named (a speed-of-light figure missing: "not collected") is still held to the
 * steady state: its XU pipe "at 140 %" weighs no finding, and a 5 us kernel's shares weigh none. */
static void a_partial_sol_group_is_held_to_the_steady_state(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_L2] = NAN;
    v[IN_XU_PIPE] = 140.0;
    v[IN_CONVERSIONS] = 1e9;
    v[IN_XU_CONVERSION_SHARE] = 100.0;
    int n = findings_of(v, NULL, f);
    assert_null(find(f, n, "type_conversions"));
    healthy(v);
    v[IN_SOL_L2] = NAN;
    v[IN_STORE_EFFICIENCY] = 12.5;
    v[IN_ST_SECTORS] = 32e6;
    v[IN_DURATION_MS] = 0.005;
    n = findings_of(v, NULL, f);
    assert_null(find(f, n, "uncoalesced_global_stores"));
    assert_string_equal(f[0].cause, "launch_overhead");
}

/* No figure of a finding may read above 100 % of a peak, nor a gain reach 100 %. */
static void no_figure_above_a_peak(const struct finding *f, int n)
{
    for (int i = 0; i < n; ++i) {
        const char *at = f[i].evidence;
        assert_true(f[i].gain_pct < 100.0);
        while ((at = strstr(at, " % of peak")) != NULL) {
            const char *digits = at;
            while (digits > f[i].evidence && (digits[-1] == '.' || (digits[-1] >= '0' && digits[-1] <= '9')))
                --digits;
            if (atof(digits) > 100.0)
                fail_msg("%s: %s", f[i].cause, f[i].evidence);
            at += 1;
        }
    }
}

/* The corpus's tiny kernel on the H100 (at 4302ff0): 2.5 us, its L1 at 290.6 % of "peak" over that ramp (it read
 * l1_bound first, gain 100 %, then launch_overhead before l1_bound). It has no steady state: no rate is judged, its
 * one finding is the launch. */
static void a_short_kernel_is_judged_by_its_launch_alone(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_L1] = 290.6, v[IN_SOL_L2] = 14.4, v[IN_SOL_DRAM] = 0.0, v[IN_FMA_PIPE] = 0.2, v[IN_ISSUE_SLOTS] = 0.7;
    v[IN_BLOCKS_LAUNCHED] = 1;
    v[IN_DURATION_MS] = 0.0025;
    int n = findings_of(v, NULL, f);
    assert_int_equal(n, 1);
    assert_string_equal(f[0].cause, "launch_overhead");
    expect_gain(f, n, "launch_overhead", 100.0 * 3.0 / 5.5);
    no_figure_above_a_peak(f, n);
}

/* PyTorch's FillFunctor writing one float (field notes): 3 us on one block, L1 "at 240 %", its one store using 4 of
 * its sector's 32 bytes. It read uncoalesced_global_stores first at 100 %; now its launch, nothing above a peak. And
 * a long kernel whose unit still reads above its peak is judged by nothing that weighs by that unit. */
static void a_one_element_fill_reads_no_rate(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_L1] = 240.0;
    v[IN_LD_REQUESTS] = v[IN_LD_SECTORS] = 0;
    v[IN_ST_REQUESTS] = v[IN_ST_SECTORS] = 1;
    v[IN_STORE_EFFICIENCY] = 12.5;
    v[IN_BLOCKS_LAUNCHED] = 1;
    v[IN_DURATION_MS] = 0.003;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "launch_overhead");
    assert_null(find(f, n, "uncoalesced_global_stores"));
    no_figure_above_a_peak(f, n);
    v[IN_DURATION_MS] = 1.0;
    n = findings_of(v, NULL, f);
    assert_null(find(f, n, "uncoalesced_global_stores"));
    assert_string_equal(f[0].cause, "too_few_blocks");
    no_figure_above_a_peak(f, n);
}

/* A tiny kernel: one block, a few microseconds. The launch, not its grid, is what costs. */
static void a_short_kernel_is_launch_overhead_not_its_grid(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_L1] = v[IN_SOL_L2] = v[IN_SOL_DRAM] = v[IN_FMA_PIPE] = v[IN_ISSUE_SLOTS] = 1.0;
    v[IN_BLOCKS_LAUNCHED] = 1;
    v[IN_DURATION_MS] = 0.002;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "launch_overhead");
    expect_gain(f, n, "launch_overhead", 100.0 * 3.0 / 5.0);
    assert_null(find(f, n, "too_few_blocks"));
    assert_null(find(f, n, "latency_bound")); /* no steady state: no bound */
}

static void fp64_in_an_fp32_kernel_is_told_by_its_conversions(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    units_at(v, 10.0);
    v[IN_FP64_PIPE] = 90.0;
    v[IN_FLOP_FP64] = 1e9;
    v[IN_CONVERSIONS_PER_FP64_OP] = 2.0;
    int n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "fp64_in_fp32_kernel");
    expect_gain(f, n, "fp64_in_fp32_kernel", 90.0); /* no FP32 operation: the whole arithmetic is the FP64 path */
    assert_string_equal(f[1].cause, "fp64_bound");
    v[IN_CONVERSIONS_PER_FP64_OP] = 0.0; /* an FP64 kernel: its FP64 is meant */
    n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "fp64_bound");
    assert_float_equal(f[0].gain_pct, 90.0, 1e-9);
    /* the corpus's double literal: per step FMUL, F2F, DADD, F2F, the issue slots the busiest: (1 + 2) of 4 */
    healthy(v);
    v[IN_ISSUE_SLOTS] = 70.0;
    v[IN_FP64_PIPE] = 30.0;
    v[IN_FLOP_FP32] = v[IN_FLOP_FP64] = 1e9;
    v[IN_CONVERSIONS_PER_FP64_OP] = 2.0;
    n = findings_of(v, NULL, f);
    assert_string_equal(f[0].cause, "fp64_in_fp32_kernel");
    expect_gain(f, n, "fp64_in_fp32_kernel", 70.0 * 0.75);
    assert_string_equal(f[1].cause, "issue_bound");
}

/* Equal gains keep the rules' order, whichever order they were found in. */
static void ties_go_to_the_rules_order(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_SOL_L1] = 50.0;
    v[IN_SHARED_LD_EXCESS] = v[IN_SHARED_ST_EXCESS] = 0.2e6;
    int n = findings_of(v, NULL, f);
    assert_true(n >= 2);
    assert_string_equal(f[0].cause, "shared_load_conflicts");
    assert_string_equal(f[1].cause, "shared_store_conflicts");
    assert_float_equal(f[0].gain_pct, f[1].gain_pct, 0);
}

/* A figure not collected judges nothing: no finding reads "nan". */
static void a_rule_without_its_figures_finds_nothing(void **state)
{
    (void)state;
    double v[DIAGNOSIS_INPUT_COUNT];
    struct finding f[FINDING_MAX];
    healthy(v);
    v[IN_STORE_EFFICIENCY] = 12.5;
    v[IN_ST_SECTORS] = 32e6;
    v[IN_SOL_L1] = v[IN_SOL_L2] = v[IN_SOL_DRAM] = v[IN_FMA_PIPE] = v[IN_ISSUE_SLOTS] = NAN;
    v[IN_BLOCKS_BY_REGISTERS] = NAN;
    int n = findings_of(v, NULL, f);
    assert_int_equal(n, 0);
    healthy(v);
    v[IN_LOCAL_SECTORS] = v[IN_GLOBAL_ATOMICS] = v[IN_DURATION_MS] = NAN;
    n = findings_of(v, NULL, f);
    for (int i = 0; i < n; ++i)
        assert_null(strstr(f[i].evidence, "nan"));
}

static void every_rule_is_documented_in_metrics_md(void **state)
{
    (void)state;
    FILE *doc = fopen("docs/metrics.md", "r");
    static char text[1 << 20];
    assert_non_null(doc);
    size_t n = fread(text, 1, sizeof text - 1, doc);
    fclose(doc);
    text[n] = '\0';
    assert_int_equal(finding_rule_count(), FINDING_MAX);
    for (int i = 0; i < finding_rule_count(); ++i) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "`%s`", finding_rule_name(i));
        if (!strstr(text, quoted))
            fail_msg("docs/metrics.md does not give the rule %s", quoted);
        assert_true(strlen(finding_rule_doc(i)) > 0 && strlen(finding_rule_reads(i)) > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_healthy_kernel_has_only_its_bound_finding),
        cmocka_unit_test(twelve_and_a_half_percent_stores_come_before_l2_bound),
        cmocka_unit_test(a_bound_finding_never_ranks_before_a_material_cause_on_its_unit),
        cmocka_unit_test(uncoalesced_loads_waste_the_busiest_memory_unit),
        cmocka_unit_test(strided_and_misaligned_are_told_apart_by_excess_sectors_per_request),
        cmocka_unit_test(a_misaligned_stream_costs_the_limiting_dram),
        cmocka_unit_test(the_ldmatrix_rungs_conflicts_come_first),
        cmocka_unit_test(shared_conflicts_are_their_share_times_l1),
        cmocka_unit_test(the_line_with_the_most_excess_is_named),
        cmocka_unit_test(local_memory_is_its_share_of_sectors),
        cmocka_unit_test(divergence_is_the_idle_lanes_share_of_the_busier_issue_unit),
        cmocka_unit_test(atomics_on_one_address_contend),
        cmocka_unit_test(one_atomic_a_block_is_no_contention),
        cmocka_unit_test(a_few_atomics_beside_tma_are_no_contention),
        cmocka_unit_test(the_wave_rules_without_the_sms_are_unjudged),
        cmocka_unit_test(the_occupancy_calculator_agrees_with_the_h100),
        cmocka_unit_test(occupancy_names_the_resource_that_sets_it),
        cmocka_unit_test(too_few_blocks_and_a_partial_wave),
        cmocka_unit_test(a_short_kernel_is_launch_overhead_not_its_grid),
        cmocka_unit_test(a_memory_bound_tail_costs_the_bandwidth_it_leaves_idle),
        cmocka_unit_test(predicated_lanes_are_seen_where_divergence_is_not),
        cmocka_unit_test(predication_and_conversions_name_their_lines),
        cmocka_unit_test(conversions_cost_the_xu_pipe_they_keep_busy),
        cmocka_unit_test(a_double_literal_s_conversions_are_the_fp64_path_s),
        cmocka_unit_test(a_partial_sol_group_is_held_to_the_steady_state),
        cmocka_unit_test(a_short_kernel_is_judged_by_its_launch_alone),
        cmocka_unit_test(a_one_element_fill_reads_no_rate),
        cmocka_unit_test(fp64_in_an_fp32_kernel_is_told_by_its_conversions),
        cmocka_unit_test(ties_go_to_the_rules_order),
        cmocka_unit_test(a_rule_without_its_figures_finds_nothing),
        cmocka_unit_test(every_rule_is_documented_in_metrics_md),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
