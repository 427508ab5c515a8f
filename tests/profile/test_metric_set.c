/* Metric groups, extra metric names, and the metrics derived from collected values (looked up by name). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/profile/metric_set.h"
#include "../../harness/profile/profile_summary.h"

static void assert_close(double actual, double expected)
{
    if (!(fabs(actual - expected) <= 1e-12 * fmax(1.0, fabs(expected))))
        fail_msg("got %.17g, expected %.17g", actual, expected);
}

static int count_of(const struct metric_set *s, const char *name)
{
    int count = 0;
    for (int i = 0; i < s->n; ++i)
        count += strcmp(s->names[i], name) == 0;
    return count;
}

static void build_ok(const char *groups, const char *extra, struct metric_set *s)
{
    struct error e = {0};
    int rc = metric_set_build(groups, extra, s, &e);
    if (rc != 0)
        fail_msg("metric_set_build(\"%s\", \"%s\") failed: %d %s", groups, extra ? extra : "(null)", rc, e.message);
}

static void build_fails(const char *groups, const char *extra, struct error *e)
{
    struct metric_set s;
    *e = (struct error){0};
    assert_int_equal(metric_set_build(groups, extra, &s, e), EXIT_USAGE);
    assert_int_equal(e->code, EXIT_USAGE);
    assert_true(e->message[0] != '\0');
}

/* ---- metric_set_build ---- */

static void all_holds_every_group_metric_once(void **state)
{
    (void)state;
    static const char *const group_names[] = {"global", "shared", "dram", "roofline", "cache", "sol", "tensor", "causes"};
    struct metric_set all, group;
    build_ok("all", NULL, &all);
    /* Every metric of every group is in "all", exactly once. */
    int members = 0;
    for (size_t g = 0; g < sizeof group_names / sizeof group_names[0]; ++g) {
        build_ok(group_names[g], NULL, &group);
        assert_true(group.n > 0);
        for (int i = 0; i < group.n; ++i)
            if (count_of(&all, group.names[i]) != 1)
                fail_msg("%s (group %s) appears %d times in \"all\"", group.names[i], group_names[g],
                         count_of(&all, group.names[i]));
        members += group.n;
    }
    /* No duplicates at all within "all". */
    for (int i = 0; i < all.n; ++i)
        assert_int_equal(count_of(&all, all.names[i]), 1);
    /* Groups: global 6 + shared 11 (8 + ldmatrix's 3) + dram 4 + roofline 10 + cache 2 + sol 9 + tensor 10 + causes 15
     * (issue 47: predicated-on lanes, the XU pipe's share and instructions) = 67 memberships; gpu__time_duration.sum is
     * in both dram and roofline, so "all" has 67 - 1 = 66 distinct names, within the 72 a configuration may hold. */
    assert_int_equal(members, 67);
    assert_int_equal(all.n, 66);
    assert_true(all.n <= MAX_METRICS);
}

static void all_includes_sample_metrics(void **state)
{
    (void)state;
    struct metric_set s;
    build_ok("all", NULL, &s);
    assert_int_equal(count_of(&s, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"), 1);
    assert_int_equal(count_of(&s, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), 1);
    /* In both the dram and the roofline group, yet once in the set. */
    assert_int_equal(count_of(&s, "gpu__time_duration.sum"), 1);
}

static void none_is_empty(void **state)
{
    (void)state;
    struct metric_set s;
    build_ok("none", NULL, &s);
    assert_int_equal(s.n, 0);
}

/* "none" beside a group would collect the group's metrics silently: refused, wherever in the list it stands. */
static void none_stands_alone(void **state)
{
    (void)state;
    struct error e;
    const char *lists[] = {"none,global", "global,none", "dram,none,global"};
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; ++i) {
        build_fails(lists[i], NULL, &e);
        if (!strstr(e.message, "'none' with other groups"))
            fail_msg("%s: %s", lists[i], e.message);
    }
}

/* The source group alone is a program's source run (memscope's own run refuses it: tests/run/test_exit_codes.c). */
static void the_source_group_stands_alone_and_all_includes_it(void **state)
{
    (void)state;
    struct metric_set s;
    build_ok("source", NULL, &s);
    assert_true(s.source);
    assert_int_equal(s.n, 0);
    build_ok("source,global", NULL, &s);
    assert_true(s.source);
    build_ok("all", NULL, &s);
    assert_true(s.source);
    build_ok("global,shared,dram,roofline,cache", NULL, &s);
    assert_false(s.source);
}

/* The roofline group also has the run measure the GPU's ceilings (its roofs), and carries the byte counts of
 * the three levels the hierarchical roofline places each kernel at. */
static void the_roofline_group_asks_for_the_ceilings_and_each_levels_bytes(void **state)
{
    (void)state;
    struct metric_set s;
    build_ok("roofline", NULL, &s);
    assert_true(s.roofline);
    assert_int_equal(count_of(&s, "lts__t_bytes.sum"), 1);
    assert_int_equal(count_of(&s, "l1tex__data_pipe_lsu_wavefronts.sum"), 1);
    build_ok("all", NULL, &s);
    assert_true(s.roofline);
    build_ok("global,shared,dram,cache,sol", NULL, &s);
    assert_false(s.roofline);
}

static void dram_is_exactly_four_metrics(void **state)
{
    (void)state;
    struct metric_set s;
    build_ok("dram", NULL, &s);
    assert_int_equal(s.n, 4);
    assert_int_equal(count_of(&s, "dram__bytes_read.sum"), 1);
    assert_int_equal(count_of(&s, "dram__bytes_write.sum"), 1);
    assert_int_equal(count_of(&s, "dram__throughput.avg.pct_of_peak_sustained_elapsed"), 1);
    assert_int_equal(count_of(&s, "gpu__time_duration.sum"), 1);
}

static void global_and_shared_add_up(void **state)
{
    (void)state;
    struct metric_set s;
    build_ok("global,shared", NULL, &s);
    /* 6 global + 11 shared, no name in common. */
    assert_int_equal(s.n, 6 + 11);
    assert_int_equal(count_of(&s, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"), 1);
    assert_int_equal(count_of(&s, "smsp__sass_data_bytes_mem_shared_op_st.sum"), 1);
}

static void extra_names_with_no_group(void **state)
{
    (void)state;
    struct metric_set s;
    build_ok("none", "a.sum,b.sum", &s);
    assert_int_equal(s.n, 2);
    assert_int_equal(count_of(&s, "a.sum"), 1);
    assert_int_equal(count_of(&s, "b.sum"), 1);
}

static void extra_duplicate_of_group_metric_not_added_twice(void **state)
{
    (void)state;
    struct metric_set s;
    build_ok("dram", "dram__bytes_read.sum,x.sum", &s);
    /* 4 dram metrics + x.sum; dram__bytes_read.sum is already there. */
    assert_int_equal(s.n, 5);
    assert_int_equal(count_of(&s, "dram__bytes_read.sum"), 1);
    assert_int_equal(count_of(&s, "x.sum"), 1);
}

static void unknown_group_names_it(void **state)
{
    (void)state;
    struct error e;
    build_fails("bogus", NULL, &e);
    assert_non_null(strstr(e.message, "bogus"));
}

static void empty_extra_item_is_usage_error(void **state)
{
    (void)state;
    struct error e;
    /* The item between the two commas is empty: not a metric name. */
    build_fails("none", "a.sum,,b.sum", &e);
}

static void name_of_128_chars_is_usage_error(void **state)
{
    (void)state;
    char name[129];
    memset(name, 'x', 128);
    name[128] = '\0';
    struct error e;
    /* 128 characters need 129 bytes with the terminator; the set holds METRIC_NAME_LEN = 128. */
    build_fails("none", name, &e);
}

static void name_of_127_chars_fits(void **state)
{
    (void)state;
    char name[128];
    memset(name, 'y', 127);
    name[127] = '\0';
    struct metric_set s;
    build_ok("none", name, &s);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.names[0], name);
}

/* ---- metric_lookup ---- */

static void lookup_finds_by_name_and_missing_is_nan(void **state)
{
    (void)state;
    const char *const names[] = {"a.sum", "b.sum"};
    const double values[] = {1.5, 2.5};
    assert_close(metric_lookup(names, values, 2, "b.sum"), 2.5);
    assert_close(metric_lookup(names, values, 2, "a.sum"), 1.5);
    assert_true(isnan(metric_lookup(names, values, 2, "c.sum")));
    assert_true(isnan(metric_lookup(names, values, 0, "a.sum")));
}

/* ---- metrics_derive ---- */

static double derived(const char *const *names, const double *values, int n, const char *name)
{
    struct derived_metric out[MAX_DERIVED];
    int count = metrics_derive(names, values, n, out);
    assert_true(count > 0 && count <= MAX_DERIVED);
    for (int i = 0; i < count; ++i)
        if (strcmp(out[i].name, name) == 0)
            return out[i].value;
    fail_msg("no derived metric named %s", name);
    return NAN;
}

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void sectors_per_request_is_ratio(void **state)
{
    (void)state;
    const char *const names[] = {"smsp__sass_inst_executed_op_global_ld.sum",
                                 "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"};
    const double values[] = {100, 800};
    /* 800 sectors / 100 requests */
    assert_close(derived(names, values, N(names), "sectors_per_request_ld"), 8);
}

static const char *const shared_ld_names[] = {
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_data_bytes_mem_shared_op_ld.sum",
};

static void shared_ld_32bit_conflicts(void **state)
{
    (void)state;
    /* 100 instructions of 32-bit accesses move 100 * 32 lanes * 4 bytes = 12800 bytes: 100 wavefronts at
     * least (12800 / 128 = 100, and one per instruction = 100). 1000 measured - 100 ideal = 900 extra. */
    const double values[] = {1000, 100, 12800};
    assert_close(derived(shared_ld_names, values, 3, "shared_excess_wavefronts_estimate_ld"), 900);
    /* 1000 wavefronts / 100 instructions */
    assert_close(derived(shared_ld_names, values, 3, "shared_ld_wavefronts_per_inst"), 10);
}

/* The tensor ladder's unpadded ldmatrix rung at W = 1024 on an H100: 196,608 LDSM.x4 of 512 bytes, 6,291,456
 * wavefronts, no other shared load. Ideal 4 an instruction (512 / 128): 6,291,456 - 786,432 = 5,505,024 excess. */
static void ldmatrix_excess_is_a_load_excess(void **state)
{
    (void)state;
    static const char *const names[] = {
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
        "smsp__sass_data_bytes_mem_shared_op_ld.sum", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
        "smsp__sass_inst_executed_op_ldsm.sum", "smsp__sass_data_bytes_mem_shared_op_ldsm.sum"};
    const double values[] = {0, 0, 0, 6291456, 196608, 196608.0 * 512};
    assert_close(derived(names, values, 6, "shared_excess_wavefronts_estimate_ld"), 5505024);
    assert_close(derived(names, values, 6, "ldsm_wavefronts_per_inst"), 32);
}

static void shared_ld_64bit_needs_two_wavefronts(void **state)
{
    (void)state;
    /* 64-bit: 100 * 32 * 8 = 25600 bytes, 25600 / 128 = 200 ideal wavefronts > 100 instructions;
     * 200 measured - 200 ideal = 0 conflicts. */
    const double values[] = {200, 100, 25600};
    assert_close(derived(shared_ld_names, values, 3, "shared_excess_wavefronts_estimate_ld"), 0);
    assert_close(derived(shared_ld_names, values, 3, "shared_ld_wavefronts_per_inst"), 2);
}

static void shared_ld_without_bytes_assumes_one_wavefront_per_inst(void **state)
{
    (void)state;
    /* No byte count: the ideal is one wavefront per instruction, 1000 - 100 = 900. */
    const double values[] = {1000, 100};
    assert_close(derived(shared_ld_names, values, 2, "shared_excess_wavefronts_estimate_ld"), 900);
}

static void shared_exact_is_ld_plus_st_and_hw_sums_counters(void **state)
{
    (void)state;
    const char *const names[] = {
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "smsp__sass_inst_executed_op_shared_st.sum",
        "smsp__sass_data_bytes_mem_shared_op_st.sum",
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "smsp__sass_data_bytes_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    };
    /* st: 300 wavefronts, 100 32-bit instructions (12800 bytes): 300 - 100 = 200.
     * ld: 1000 wavefronts, 100 32-bit instructions: 1000 - 100 = 900. Total 1100.
     * hardware counters: 7 + 5 = 12. */
    const double values[] = {300, 100, 12800, 1000, 100, 12800, 7, 5};
    assert_close(derived(names, values, N(names), "shared_excess_wavefronts_estimate_st"), 200);
    assert_close(derived(names, values, N(names), "shared_excess_wavefronts_estimate_ld"), 900);
    assert_close(derived(names, values, N(names), "shared_excess_wavefronts_estimate"), 1100);
    assert_close(derived(names, values, N(names), "shared_conflicts_hw"), 12);
    /* 300 / 100 */
    assert_close(derived(names, values, N(names), "shared_st_wavefronts_per_inst"), 3);
}

static const char *const dram_flop_names[] = {
    "gpu__time_duration.sum",
    "dram__bytes_write.sum",
    "dram__bytes_read.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
};
/* in the order of dram_flop_names: 2e6 ns, write 1e9, read 3e9, ffma 30, fmul 20, fadd 10, dfma 3, dmul 2, dadd 1 */
static const double dram_flop_values[] = {2e6, 1e9, 3e9, 30, 20, 10, 3, 2, 1};

static double dram_flop(const char *name)
{
    return derived(dram_flop_names, dram_flop_values, N(dram_flop_names), name);
}

/* The roofline's other two levels: L2 bytes as collected; L1/shared as 128 bytes per data-stage wavefront. */
static void l2_bytes_and_l1_shared_wavefront_bytes(void **state)
{
    (void)state;
    const char *const names[] = {"lts__t_bytes.sum", "l1tex__data_pipe_lsu_wavefronts.sum"};
    const double values[] = {5e9, 1e6};
    assert_close(derived(names, values, N(names), "l2_bytes"), 5e9);
    assert_close(derived(names, values, N(names), "l1_shared_wavefront_bytes"), 1.28e8);
    assert_true(isnan(derived(names, values, 0, "l2_bytes")));
}

static void dram_bytes_and_bandwidth(void **state)
{
    (void)state;
    /* 3e9 read + 1e9 written = 4e9 bytes; 4e9 bytes / 2e6 ns = 2000 bytes/ns = 2000 GB/s. */
    assert_close(dram_flop("dram_bytes"), 4e9);
    assert_close(dram_flop("dram_gbs"), 2000);
    /* 2e6 ns = 2 ms */
    assert_close(dram_flop("duration_ms"), 2);
}

static void flops_count_fma_twice(void **state)
{
    (void)state;
    /* fadd 10 + fmul 20 + 2 * ffma 30 = 90; dadd 1 + dmul 2 + 2 * dfma 3 = 9. */
    assert_close(dram_flop("flop_fp32"), 90);
    assert_close(dram_flop("flop_fp64"), 9);
    /* (90 + 9) flop / 2e6 ns = flop/ns = GFLOP/s */
    assert_close(dram_flop("achieved_gflops"), (90.0 + 9.0) / 2e6);
    /* 99 flop / 4e9 bytes */
    assert_close(dram_flop("arithmetic_intensity"), 99.0 / 4e9);
}

static void derived_with_absent_inputs_is_nan(void **state)
{
    (void)state;
    const char *const names[] = {"dram__bytes_read.sum", "dram__bytes_write.sum",
                                 "dram__throughput.avg.pct_of_peak_sustained_elapsed", "gpu__time_duration.sum"};
    const double values[] = {3e9, 1e9, 75, 2e6};
    assert_true(isnan(derived(names, values, N(names), "sectors_per_request_ld")));
    assert_true(isnan(derived(names, values, N(names), "shared_excess_wavefronts_estimate")));
    assert_true(isnan(derived(names, values, N(names), "flop_fp32")));
    assert_true(isnan(derived(names, values, N(names), "achieved_gflops")));
    /* while those with their inputs present are numbers */
    assert_close(derived(names, values, N(names), "dram_gbs"), 2000);
    assert_close(derived(names, values, N(names), "dram_pct_of_peak"), 75);
}

/* ---- tensor cores ---- */

static const char *const tensor_names[] = {
    "gpu__time_duration.sum",
    "sm__ops_path_tensor_src_bf16_dst_fp32.sum",
    "sm__ops_path_tensor_src_fp16.sum",
    "sm__ops_path_tensor_src_tf32_dst_fp32.sum",
    "sm__ops_path_tensor_src_fp8.sum",
    "sm__ops_path_tensor_src_int8.sum",
    "sm__ops_path_tensor_src_fp64.sum",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active",
};
#define PER_TYPE_COUNTERS 6 /* tensor_names[1] to [6] */

/* The tensor group, by the names DESIGN-39 fixed and CUPTI's host API accepts for GH100 (tests/cupti): the six
 * per-type counters, then the instruction families'. */
/* Conversions' share of the XU pipe's instructions: 2^28 thread conversions at 24 lanes an instruction over 12.6 M
 * XU instructions (the corpus's modulo reduction: 88.8 %); 0 without XU work; not judged (NAN, never 100 %) where
 * the predicated-on lanes were not collected or read 0. */
static void the_xu_conversion_share_is_a_share_or_nothing(void **state)
{
    (void)state;
    const char *const names[] = {"smsp__sass_thread_inst_executed_op_conversion_pred_on.sum",
                                 "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio",
                                 "smsp__inst_executed_pipe_xu.sum"};
    double values[] = {268435456.0, 24.0, 12600000.0};
    assert_close(derived(names, values, N(names), "xu_conversion_share_pct"), 100.0 * 268435456.0 / 24.0 / 12600000.0);
    values[2] = 0.0;
    assert_close(derived(names, values, N(names), "xu_conversion_share_pct"), 0.0);
    values[2] = 12600000.0;
    values[1] = 0.0;
    assert_true(isnan(derived(names, values, N(names), "xu_conversion_share_pct")));
    const char *const without_lanes[] = {names[0], names[2]};
    const double two[] = {268435456.0, 12600000.0};
    assert_true(isnan(derived(without_lanes, two, N(without_lanes), "xu_conversion_share_pct")));
}

static void the_tensor_group_is_its_counters(void **state)
{
    (void)state;
    static const char *const families[] = {
        "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32_sparsity_off.sum",
        "sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32_sparsity_off.sum",
        "sm__inst_executed_pipe_tensor_op_gmma.sum",
        "sm__inst_executed_pipe_tensor_op_hmma.sum",
    };
    struct metric_set s, sol;
    build_ok("tensor", NULL, &s);
    assert_int_equal(s.n, PER_TYPE_COUNTERS + N(families));
    for (int i = 1; i <= PER_TYPE_COUNTERS; ++i)
        assert_int_equal(count_of(&s, tensor_names[i]), 1);
    for (int i = 0; i < N(families); ++i)
        assert_int_equal(count_of(&s, families[i]), 1);
    /* The two pipes are the sol group's; GH100's shared pipe, FP64 and tensor together, is gone. */
    build_ok("sol", NULL, &sol);
    assert_int_equal(count_of(&sol, "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"), 1);
    assert_int_equal(count_of(&sol, "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active"), 1);
    assert_int_equal(count_of(&sol, "sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active"), 0);
}

/* A 4096^3 bf16 GEMM (2 x 4096^3 = 137,438,953,472 operations) in 0.2 ms with a few other types beside. */
static void tensor_flop_is_each_counter_and_their_sum(void **state)
{
    (void)state;
    const double values[] = {2e5, 137438953472.0, 1000, 200, 30, 4, 5, 94.7, 0.5};
    const double sum = 137438953472.0 + 1000 + 200 + 30 + 4 + 5;
    assert_close(derived(tensor_names, values, N(tensor_names), "flop_tensor_bf16"), 137438953472.0);
    assert_close(derived(tensor_names, values, N(tensor_names), "flop_tensor_fp16"), 1000);
    assert_close(derived(tensor_names, values, N(tensor_names), "flop_tensor_tf32"), 200);
    assert_close(derived(tensor_names, values, N(tensor_names), "flop_tensor_fp8"), 30);
    assert_close(derived(tensor_names, values, N(tensor_names), "flop_tensor_int8"), 4);
    assert_close(derived(tensor_names, values, N(tensor_names), "flop_tensor_fp64"), 5);
    assert_close(derived(tensor_names, values, N(tensor_names), "flop_tensor"), sum);
    /* operations per ns = GFLOP/s */
    assert_close(derived(tensor_names, values, N(tensor_names), "tensor_gflops"), sum / 2e5);
    assert_close(derived(tensor_names, values, N(tensor_names), "tensor_pipe_pct"), 94.7);
    assert_close(derived(tensor_names, values, N(tensor_names), "fp64_pipe_pct"), 0.5);
    /* Not collected: no figure, never 0. */
    assert_true(isnan(derived(tensor_names, values, 1, "flop_tensor")));
    assert_true(isnan(derived(tensor_names, values, 1, "tensor_gflops")));
    assert_true(isnan(derived(tensor_names, values, 1, "tensor_pipe_pct")));
}

static const char *tensor_type_of(const double *values, int n)
{
    struct derived_metric out[MAX_DERIVED];
    metrics_derive(tensor_names, values, n, out);
    return metrics_tensor_type(out);
}

static void the_tensor_type_is_the_one_with_most_operations(void **state)
{
    (void)state;
    const double bf16[] = {1, 4096, 0, 0, 0, 0, 0, 0, 0}, tf32[] = {1, 0, 10, 300, 0, 0, 0, 0, 0},
                 fp8[] = {1, 0, 0, 0, 7, 0, 0, 0, 0}, int8[] = {1, 0, 0, 0, 0, 9, 0, 0, 0},
                 fp64[] = {1, 0, 0, 0, 0, 0, 64, 0, 0}, fp16[] = {1, 0, 8, 0, 0, 0, 0, 0, 0},
                 none[] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_string_equal(tensor_type_of(bf16, N(tensor_names)), "bf16");
    assert_string_equal(tensor_type_of(fp16, N(tensor_names)), "fp16");
    assert_string_equal(tensor_type_of(tf32, N(tensor_names)), "tf32");
    assert_string_equal(tensor_type_of(fp8, N(tensor_names)), "fp8");
    assert_string_equal(tensor_type_of(int8, N(tensor_names)), "int8");
    assert_string_equal(tensor_type_of(fp64, N(tensor_names)), "fp64");
    /* No tensor operation, or the tensor group not collected: no type. */
    assert_string_equal(tensor_type_of(none, N(tensor_names)), "");
    assert_string_equal(tensor_type_of(bf16, 1), "");
}

/* ---- profile_diagnose ---- */

/* L1/shared the busiest unit, shared wavefronts counted but their instructions without a value (written empty):
 * the conflict share cannot be judged, and the evidence says so rather than reading it as 0 %. */
static void a_conflict_share_without_its_ideal_is_not_judged(void **state)
{
    (void)state;
    static const char *const names[] = {
        "l1tex__throughput.avg.pct_of_peak_sustained_active", "lts__throughput.avg.pct_of_peak_sustained_elapsed",
        "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
        "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__inst_issued.avg.pct_of_peak_sustained_active",
        "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
        "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", shared_ld_names[0], shared_ld_names[1],
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smsp__sass_inst_executed_op_shared_st.sum"};
    const double values[] = {90, 10, 5, 30, 35, 0, 0, 1000, NAN, 100, 100};
    struct profile p = {.n_metrics = N(names), .n_kernels = 1};
    struct diagnosis d;
    for (int i = 0; i < p.n_metrics; ++i) {
        p.names[i] = names[i];
        p.kernels[0].values[i] = values[i];
    }
    profile_diagnose(&p, 0, NULL, NULL, &d);
    assert_string_equal(d.limiter, "L1/shared bandwidth");
    assert_non_null(strstr(d.evidence, "bank conflicts not judged (conflict_share_pct not collected)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_holds_every_group_metric_once),
        cmocka_unit_test(the_xu_conversion_share_is_a_share_or_nothing),
        cmocka_unit_test(all_includes_sample_metrics),
        cmocka_unit_test(none_is_empty),
        cmocka_unit_test(none_stands_alone),
        cmocka_unit_test(the_source_group_stands_alone_and_all_includes_it),
        cmocka_unit_test(the_roofline_group_asks_for_the_ceilings_and_each_levels_bytes),
        cmocka_unit_test(dram_is_exactly_four_metrics),
        cmocka_unit_test(global_and_shared_add_up),
        cmocka_unit_test(extra_names_with_no_group),
        cmocka_unit_test(extra_duplicate_of_group_metric_not_added_twice),
        cmocka_unit_test(unknown_group_names_it),
        cmocka_unit_test(empty_extra_item_is_usage_error),
        cmocka_unit_test(name_of_128_chars_is_usage_error),
        cmocka_unit_test(name_of_127_chars_fits),
        cmocka_unit_test(lookup_finds_by_name_and_missing_is_nan),
        cmocka_unit_test(sectors_per_request_is_ratio),
        cmocka_unit_test(shared_ld_32bit_conflicts),
        cmocka_unit_test(ldmatrix_excess_is_a_load_excess),
        cmocka_unit_test(a_conflict_share_without_its_ideal_is_not_judged),
        cmocka_unit_test(shared_ld_64bit_needs_two_wavefronts),
        cmocka_unit_test(shared_ld_without_bytes_assumes_one_wavefront_per_inst),
        cmocka_unit_test(shared_exact_is_ld_plus_st_and_hw_sums_counters),
        cmocka_unit_test(dram_bytes_and_bandwidth),
        cmocka_unit_test(l2_bytes_and_l1_shared_wavefront_bytes),
        cmocka_unit_test(flops_count_fma_twice),
        cmocka_unit_test(derived_with_absent_inputs_is_nan),
        cmocka_unit_test(the_tensor_group_is_its_counters),
        cmocka_unit_test(tensor_flop_is_each_counter_and_their_sum),
        cmocka_unit_test(the_tensor_type_is_the_one_with_most_operations),
    };
    return cmocka_run_group_tests_name("metric_set", tests, NULL, NULL);
}
