/*
 * What a ceiling is, with no GPU (harness/ceilings/rates.c): the datasheet figures derived from a run's
 * environment, the plausibility judgement --validate writes into validate.csv, and the roofline bound the
 * report gives each kernel.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/ceilings/rates.h"

/* The H100 80GB HBM3 of the reference run: 132 SMs at 1980 MHz, HBM3 at 2619 MHz on a 5120-bit bus. */
static const struct gpu_figures h100 = {"9.0", 132, 1980, 2619, 5120};

static void assert_near(double actual, double expected)
{
    if (!(fabs(actual - expected) <= 1e-9 * fmax(1.0, fabs(expected))))
        fail_msg("expected %.9g, got %.9g", expected, actual);
}

static void h100_datasheet_figures(void **state)
{
    (void)state;
    struct ceiling_rates d = ceiling_datasheet(&h100);
    /* 256 FP32 results per SM per clock (128 lanes, an FMA is two) x 132 x 1.98 GHz: 66.9 TFLOP/s. */
    assert_near(d.value[CEILING_FP32], 256.0 * 132 * 1.98);
    assert_near(d.value[CEILING_FP64], 128.0 * 132 * 1.98);
    /* 2 x 2619 MHz x 5120 bits / 8: 3.35 TB/s */
    assert_near(d.value[CEILING_DRAM], 2.0 * 2619e6 * 5120 / 8 / 1e9);
    /* 128 bytes per clock per SM x 132 x 1.98 GHz: 33.5 TB/s */
    assert_near(d.value[CEILING_L1_SHARED], 128.0 * 132 * 1.98);
    assert_true(isnan(d.value[CEILING_L2])); /* NVIDIA publishes no L2 bandwidth */
    /* Dense tensor FLOP per SM per clock: bf16 and fp16 4096, tf32 2048, fp8 8192, at the maximum SM clock. */
    assert_near(d.value[CEILING_TENSOR_BF16], 4096.0 * 132 * 1.98);
    assert_near(d.value[CEILING_TENSOR_FP16], 4096.0 * 132 * 1.98);
    assert_near(d.value[CEILING_TENSOR_TF32], 2048.0 * 132 * 1.98);
    assert_near(d.value[CEILING_TENSOR_FP8], 8192.0 * 132 * 1.98);
}

/* NVIDIA's H100 SXM dense figures (989, 495 and 1979 TFLOP/s for bf16/fp16, tf32 and fp8) are the per-SM rates at
 * 132 SMs and a 1830 MHz clock, not the 1980 MHz maximum the driver reports: at that clock the table gives them
 * to the TFLOP/s. */
static void tensor_figures_match_nvidia_s_at_its_clock(void **state)
{
    (void)state;
    struct gpu_figures g = h100;
    g.sm_clock_mhz = 1830;
    struct ceiling_rates d = ceiling_datasheet(&g);
    assert_true(fabs(d.value[CEILING_TENSOR_BF16] - 989e3) < 1e3);
    assert_true(fabs(d.value[CEILING_TENSOR_FP16] - 989e3) < 1e3);
    assert_true(fabs(d.value[CEILING_TENSOR_TF32] - 495e3) < 1e3);
    assert_true(fabs(d.value[CEILING_TENSOR_FP8] - 1979e3) < 1e3);
}

/* summary.csv's tensor_type names the roof: the four measured types, and nothing for the rest. */
static void a_tensor_type_names_its_ceiling(void **state)
{
    (void)state;
    assert_int_equal(ceiling_for_tensor_type("bf16"), CEILING_TENSOR_BF16);
    assert_int_equal(ceiling_for_tensor_type("fp16"), CEILING_TENSOR_FP16);
    assert_int_equal(ceiling_for_tensor_type("tf32"), CEILING_TENSOR_TF32);
    assert_int_equal(ceiling_for_tensor_type("fp8"), CEILING_TENSOR_FP8);
    assert_int_equal(ceiling_for_tensor_type("int8"), -1);
    assert_int_equal(ceiling_for_tensor_type("fp64"), -1);
    assert_int_equal(ceiling_for_tensor_type("fp32"), -1);
    assert_int_equal(ceiling_for_tensor_type("BF16"), -1);
    assert_int_equal(ceiling_for_tensor_type(""), -1);
    assert_int_equal(ceiling_for_tensor_type(NULL), -1);
    assert_true(ceiling_is_tensor(CEILING_TENSOR_FP8));
    assert_false(ceiling_is_tensor(CEILING_FP64));
    assert_false(ceiling_is_tensor(CEILING_DRAM));
}

static void an_unknown_gpu_has_no_arithmetic_figures(void **state)
{
    (void)state;
    struct gpu_figures g = h100;
    g.compute_capability = "42.0";
    struct ceiling_rates d = ceiling_datasheet(&g);
    assert_true(isnan(d.value[CEILING_FP32]) && isnan(d.value[CEILING_FP64]));
    assert_true(isnan(d.value[CEILING_TENSOR_BF16]) && isnan(d.value[CEILING_TENSOR_FP8]));
    assert_false(isnan(d.value[CEILING_DRAM]));
    /* An A100 (8.0) has FP32 and FP64 figures but no tensor figure: memscope measures tensor ceilings on 9.0 only. */
    g.compute_capability = "8.0";
    d = ceiling_datasheet(&g);
    assert_false(isnan(d.value[CEILING_FP32]));
    assert_true(isnan(d.value[CEILING_TENSOR_BF16]) && isnan(d.value[CEILING_TENSOR_TF32]));
    g.compute_capability = NULL;
    g.sm_count = NAN;
    d = ceiling_datasheet(&g);
    assert_true(isnan(d.value[CEILING_FP32]) && isnan(d.value[CEILING_L1_SHARED]));
}

static void keys_are_the_environment_names(void **state)
{
    (void)state;
    assert_string_equal(ceiling_key(CEILING_DRAM), "ceiling_dram_gbs");
    assert_string_equal(ceiling_key(CEILING_L2), "ceiling_l2_gbs");
    assert_string_equal(ceiling_key(CEILING_L1_SHARED), "ceiling_l1_shared_gbs");
    assert_string_equal(ceiling_key(CEILING_FP32), "ceiling_fp32_gflops");
    assert_string_equal(ceiling_key(CEILING_FP64), "ceiling_fp64_gflops");
    assert_string_equal(ceiling_unit(CEILING_FP64), "GFLOP/s");
    assert_string_equal(ceiling_key(CEILING_TENSOR_BF16), "ceiling_tensor_bf16_gflops");
    assert_string_equal(ceiling_key(CEILING_TENSOR_FP16), "ceiling_tensor_fp16_gflops");
    assert_string_equal(ceiling_key(CEILING_TENSOR_TF32), "ceiling_tensor_tf32_gflops");
    assert_string_equal(ceiling_key(CEILING_TENSOR_FP8), "ceiling_tensor_fp8_gflops");
    assert_string_equal(ceiling_label(CEILING_TENSOR_BF16), "bf16 tensor");
    assert_string_equal(ceiling_unit(CEILING_TENSOR_FP8), "GFLOP/s");
}

/* What an H100 is expected to measure (field notes: ~3.0 TB/s copy, ~60 TFLOP/s FFMA; tensor rates near NVIDIA's
 * figures, which cuBLAS's bf16 GEMM reaches 80 % of). */
static struct ceiling_rates plausible_h100(void)
{
    return (struct ceiling_rates){{[CEILING_DRAM] = 3000, [CEILING_L2] = 7000, [CEILING_L1_SHARED] = 30000,
                                   [CEILING_FP32] = 60000, [CEILING_FP64] = 30000, [CEILING_TENSOR_BF16] = 950000,
                                   [CEILING_TENSOR_FP16] = 950000, [CEILING_TENSOR_TF32] = 470000,
                                   [CEILING_TENSOR_FP8] = 1800000}};
}

static void plausible_ceilings_pass(void **state)
{
    (void)state;
    struct ceiling_rates measured = plausible_h100(), datasheet = ceiling_datasheet(&h100);
    struct ceiling_check k[CEILING_COUNT];
    ceiling_judge(&measured, &datasheet, k);
    for (int c = 0; c < CEILING_COUNT; ++c) {
        assert_int_equal(k[c].ceiling, c);
        if (!k[c].pass)
            fail_msg("%s: %g not in [%g, %g] (%s)", ceiling_key(c), k[c].measured, k[c].lower, k[c].upper, k[c].rule);
    }
    assert_near(k[CEILING_FP32].expected, datasheet.value[CEILING_FP32]);
    assert_near(k[CEILING_FP32].lower, 0.75 * datasheet.value[CEILING_FP32]);
    assert_near(k[CEILING_FP32].upper, 1.25 * datasheet.value[CEILING_FP32]);
    assert_non_null(strstr(k[CEILING_DRAM].rule, "within 25 % of the datasheet"));
    /* The L2: no datasheet figure, so the row says so and checks the order instead. */
    assert_true(isnan(k[CEILING_L2].expected));
    assert_non_null(strstr(k[CEILING_L2].rule, "no datasheet"));
    assert_non_null(strstr(k[CEILING_L2].rule, "DRAM<L2<L1/shared"));
    assert_near(k[CEILING_L2].lower, 3000);
    assert_near(k[CEILING_L2].upper, 30000);
}

static void ceilings_out_of_range_fail(void **state)
{
    (void)state;
    struct ceiling_rates datasheet = ceiling_datasheet(&h100);
    struct ceiling_check k[CEILING_COUNT];
    struct ceiling_rates m = plausible_h100();
    m.value[CEILING_FP32] = 0.74 * datasheet.value[CEILING_FP32]; /* a throttled clock, a kernel that stalls */
    m.value[CEILING_DRAM] = 1.26 * datasheet.value[CEILING_DRAM]; /* counting too many bytes */
    m.value[CEILING_FP64] = NAN;                                  /* not measured */
    ceiling_judge(&m, &datasheet, k);
    assert_false(k[CEILING_FP32].pass);
    assert_false(k[CEILING_DRAM].pass);
    assert_false(k[CEILING_FP64].pass);
    assert_true(k[CEILING_L1_SHARED].pass);
    /* The bounds themselves pass. */
    m.value[CEILING_FP32] = 0.75 * datasheet.value[CEILING_FP32];
    m.value[CEILING_DRAM] = 1.25 * datasheet.value[CEILING_DRAM];
    ceiling_judge(&m, &datasheet, k);
    assert_true(k[CEILING_FP32].pass);
    assert_true(k[CEILING_DRAM].pass);
}

/* A tensor ceiling is judged as the others on a GPU with its datasheet figure: too slow fails, and not measured
 * (a build without sm_90a on an H100) fails; on a GPU without one (an A100: no wgmma) not measured is the answer,
 * and the row says so, while a figure there is only checked > 0. */
static void tensor_ceilings_are_judged_where_the_gpu_has_them(void **state)
{
    (void)state;
    struct ceiling_rates datasheet = ceiling_datasheet(&h100), m = plausible_h100();
    struct ceiling_check k[CEILING_COUNT];
    m.value[CEILING_TENSOR_BF16] = 0.74 * datasheet.value[CEILING_TENSOR_BF16];
    m.value[CEILING_TENSOR_TF32] = NAN;
    ceiling_judge(&m, &datasheet, k);
    assert_false(k[CEILING_TENSOR_BF16].pass);
    assert_false(k[CEILING_TENSOR_TF32].pass);
    assert_true(k[CEILING_TENSOR_FP16].pass && k[CEILING_TENSOR_FP8].pass);
    assert_near(k[CEILING_TENSOR_FP8].lower, 0.75 * 8192.0 * 132 * 1.98);
    assert_non_null(strstr(k[CEILING_TENSOR_FP8].rule, "within 25 % of the datasheet"));

    struct gpu_figures a100 = {"8.0", 108, 1410, 1215, 5120};
    datasheet = ceiling_datasheet(&a100);
    m = plausible_h100();
    m.value[CEILING_TENSOR_BF16] = m.value[CEILING_TENSOR_FP16] = m.value[CEILING_TENSOR_FP8] = NAN;
    m.value[CEILING_FP64] = NAN;
    ceiling_judge(&m, &datasheet, k);
    assert_true(k[CEILING_TENSOR_BF16].pass);
    assert_true(isnan(k[CEILING_TENSOR_BF16].expected));
    assert_non_null(strstr(k[CEILING_TENSOR_BF16].rule, "not measured"));
    assert_true(k[CEILING_TENSOR_TF32].pass); /* measured: checked > 0 */
    assert_non_null(strstr(k[CEILING_TENSOR_TF32].rule, "checked > 0"));
    assert_false(k[CEILING_FP64].pass); /* the others still need their figure */
    m.value[CEILING_TENSOR_TF32] = 0;
    ceiling_judge(&m, &datasheet, k);
    assert_false(k[CEILING_TENSOR_TF32].pass);
}

static void an_l2_out_of_order_fails(void **state)
{
    (void)state;
    struct ceiling_rates datasheet = ceiling_datasheet(&h100), m = plausible_h100();
    struct ceiling_check k[CEILING_COUNT];
    m.value[CEILING_L2] = 2500; /* below DRAM: the copy did not stay in the L2 */
    ceiling_judge(&m, &datasheet, k);
    assert_false(k[CEILING_L2].pass);
    m.value[CEILING_L2] = 31000; /* above L1/shared */
    ceiling_judge(&m, &datasheet, k);
    assert_false(k[CEILING_L2].pass);
    m.value[CEILING_L2] = 7000;
    m.value[CEILING_DRAM] = NAN; /* nothing to order it against */
    ceiling_judge(&m, &datasheet, k);
    assert_false(k[CEILING_L2].pass);
}

static void without_a_datasheet_figure_only_the_measurement_is_checked(void **state)
{
    (void)state;
    struct gpu_figures g = h100;
    g.compute_capability = "42.0";
    struct ceiling_rates datasheet = ceiling_datasheet(&g), m = plausible_h100();
    struct ceiling_check k[CEILING_COUNT];
    ceiling_judge(&m, &datasheet, k);
    assert_true(k[CEILING_FP32].pass);
    assert_true(isnan(k[CEILING_FP32].expected));
    assert_non_null(strstr(k[CEILING_FP32].rule, "no datasheet: checked > 0"));
    m.value[CEILING_FP32] = 0;
    ceiling_judge(&m, &datasheet, k);
    assert_false(k[CEILING_FP32].pass);
}

/* ---- the roofline bound ---- */

/* Measured-like roofs: L1/shared 30 TB/s, L2 6.5 TB/s, DRAM 3 TB/s, FP32 60 TFLOP/s. */
static const struct roofs fp32_roofs = {{30000, 6500, 3000}, 60000};

static void assert_bound(const double intensity[ROOF_LEVELS], const struct roofs *r, enum roof roof, double gflops)
{
    struct roofline_bound b = roofline_bound(r, intensity);
    if (b.roof != roof)
        fail_msg("bound is roof %d, expected %d", b.roof, roof);
    if (roof != ROOF_NONE)
        assert_near(b.gflops, gflops);
    else
        assert_true(isnan(b.gflops));
}

static void the_lowest_roof_bounds(void **state)
{
    (void)state;
    /* naive_uncoalesced-like: 0.02 FLOP per wavefront byte: 600 GFLOP/s at L1/shared, far below the rest. */
    assert_bound((const double[]){0.02, 0.125, 16}, &fp32_roofs, ROOF_L1_SHARED, 600);
    /* naive-like: 1 FLOP per L2 byte under 6.5 TB/s: 6500 < 0.5 x 30000 = 15000 < 16 x 3000. */
    assert_bound((const double[]){0.5, 1, 16}, &fp32_roofs, ROOF_L2, 6500);
    /* an FP64 kernel streaming from DRAM: 8 x 3000 = 24000 under its FP64 roof of 30000. */
    assert_bound((const double[]){2, 10, 8}, &(struct roofs){{30000, 6500, 3000}, 30000}, ROOF_DRAM, 24000);
    /* the best ladder rung: high intensity everywhere, the FP32 roof binds. */
    assert_bound((const double[]){8, 40, 393}, &fp32_roofs, ROOF_COMPUTE, 60000);
}

static void unknown_levels_hold_nothing(void **state)
{
    (void)state;
    /* A run without the L1/shared and L2 counts (the reference run): DRAM and compute only. */
    assert_bound((const double[]){NAN, NAN, 16}, &fp32_roofs, ROOF_DRAM, 48000);
    /* No L2 roof (a run without ceilings: no datasheet L2 figure). */
    assert_bound((const double[]){0.5, 1, 16}, &(struct roofs){{30000, NAN, 3000}, 60000}, ROOF_L1_SHARED, 15000);
    /* No traffic at a level: infinite intensity, no limit there. */
    assert_bound((const double[]){INFINITY, INFINITY, INFINITY}, &fp32_roofs, ROOF_COMPUTE, 60000);
    /* Tensor-core work: no compute roof; the lowest memory roof bounds. */
    assert_bound((const double[]){4, 30, 86}, &(struct roofs){{30000, 6500, 3000}, NAN}, ROOF_L1_SHARED, 120000);
    /* Nothing known at all. */
    assert_bound((const double[]){NAN, NAN, NAN}, &(struct roofs){{30000, 6500, 3000}, NAN}, ROOF_NONE, NAN);
}

static void a_tie_goes_to_the_level_nearest_the_core(void **state)
{
    (void)state;
    /* 0.2 x 30000 = 6000 = (6000 / 6500) x 6500: both give 6000; L1/shared is named. */
    assert_bound((const double[]){0.2, 6000.0 / 6500.0, 16}, &fp32_roofs, ROOF_L1_SHARED, 6000);
}

/* A share of a ceiling: the reference run's icache_fit at W = 4096 (47,531 GFLOP/s) under its measured FP32 ceiling
 * (64,362.7) is 73.8 %; without a ceiling (a run that measured none: NAN, or a ceiling that is no rate) there is no
 * share, and an unknown rate has none either. */
static void a_share_of_a_ceiling_needs_the_ceiling(void **state)
{
    (void)state;
    assert_near(ceiling_share_pct(47531, 64362.7), 100.0 * 47531 / 64362.7);
    assert_true(isnan(ceiling_share_pct(47531, NAN)));
    assert_true(isnan(ceiling_share_pct(47531, 0)));
    assert_true(isnan(ceiling_share_pct(47531, -1)));
    assert_true(isnan(ceiling_share_pct(47531, INFINITY)));
    assert_true(isnan(ceiling_share_pct(NAN, 64362.7)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h100_datasheet_figures),
        cmocka_unit_test(tensor_figures_match_nvidia_s_at_its_clock),
        cmocka_unit_test(a_tensor_type_names_its_ceiling),
        cmocka_unit_test(an_unknown_gpu_has_no_arithmetic_figures),
        cmocka_unit_test(keys_are_the_environment_names),
        cmocka_unit_test(plausible_ceilings_pass),
        cmocka_unit_test(ceilings_out_of_range_fail),
        cmocka_unit_test(tensor_ceilings_are_judged_where_the_gpu_has_them),
        cmocka_unit_test(an_l2_out_of_order_fails),
        cmocka_unit_test(without_a_datasheet_figure_only_the_measurement_is_checked),
        cmocka_unit_test(the_lowest_roof_bounds),
        cmocka_unit_test(unknown_levels_hold_nothing),
        cmocka_unit_test(a_tie_goes_to_the_level_nearest_the_core),
        cmocka_unit_test(a_share_of_a_ceiling_needs_the_ceiling),
    };
    return cmocka_run_group_tests_name("ceiling_rates", tests, NULL, NULL);
}
