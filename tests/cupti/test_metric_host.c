/*
 * The CUPTI host API through cupti/metric_host.h, for chip GH100, on a machine
 * with no GPU: metric validation (with suggestions), units, configuration
 * images and their pass counts, and demangling of kernel names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../cupti/metric_host.h"
#include "../../harness/profile/metric_set.h"

static struct prof_host *host;

static int open_host(void **state)
{
    (void)state;
    struct prof_error e = {0};
    return prof_host_open("GH100", &host, &e) == PROF_OK ? 0 : -1;
}

static int close_host(void **state)
{
    (void)state;
    struct prof_error e = {0};
    return prof_host_close(host, &e) == PROF_OK ? 0 : -1;
}

static void every_default_metric_is_valid_for_gh100(void **state)
{
    (void)state;
    struct metric_set set;
    struct error e = {0};
    assert_int_equal(metric_set_build("all", NULL, &set, &e), 0);
    for (int i = 0; i < set.n; ++i) {
        struct prof_error pe = {0};
        if (prof_metric_validate(host, set.names[i], &pe) != PROF_OK)
            print_error("%s: %s\n", set.names[i], pe.message);
        assert_int_equal(pe.status, PROF_OK);
    }
}

static void a_misspelt_metric_is_refused_with_the_right_suggestion(void **state)
{
    (void)state;
    struct prof_error e = {0};
    assert_int_equal(prof_metric_validate(host, "dram__bytes_reed.sum", &e), PROF_UNKNOWN_METRIC);
    assert_non_null(strstr(e.message, "unknown metric 'dram__bytes_reed.sum'"));
    assert_non_null(strstr(e.message, "dram__bytes_read.sum"));
}

static void a_metric_with_no_near_name_is_still_refused(void **state)
{
    (void)state;
    struct prof_error e = {0};
    assert_int_equal(prof_metric_validate(host, "no_such_metric_at_all.sum", &e), PROF_UNKNOWN_METRIC);
}

static void units_come_from_the_metric_tables(void **state)
{
    (void)state;
    struct prof_error e = {0};
    char unit[32];
    assert_int_equal(prof_metric_unit(host, "dram__bytes_read.sum", unit, sizeof unit, &e), PROF_OK);
    assert_string_equal(unit, "byte");
    assert_int_equal(prof_metric_unit(host, "gpu__time_duration.sum", unit, sizeof unit, &e), PROF_OK);
    assert_string_equal(unit, "nanosecond");
}

static void an_unknown_chip_is_refused_naming_the_supported_ones(void **state)
{
    (void)state;
    struct prof_host *other = NULL;
    struct prof_error e = {0};
    assert_int_equal(prof_host_open("GX999", &other, &e), PROF_UNSUPPORTED_CHIP);
    assert_null(other);
    assert_non_null(strstr(e.message, "GX999"));
    assert_non_null(strstr(e.message, "GH100"));
}

static void one_hardware_counter_needs_one_pass(void **state)
{
    (void)state;
    const char *names[] = {"dram__bytes_read.sum"};
    struct prof_config c;
    struct prof_error e = {0};
    assert_int_equal(prof_config_build(host, names, 1, &c, &e), PROF_OK);
    assert_int_equal(c.passes, 1);
    assert_true(c.image_size > 0);
    assert_int_equal(c.n_metrics, 1);
    assert_string_equal(c.metrics[0], "dram__bytes_read.sum");
    prof_config_free(&c);
}

/* Instrumented (smsp__sass_*) and hardware metrics cannot share a pass (field notes: 18 of them needed 3). */
static void the_default_set_needs_several_passes(void **state)
{
    (void)state;
    struct metric_set set;
    struct error err = {0};
    const char *names[MAX_METRICS];
    assert_int_equal(metric_set_build("all", NULL, &set, &err), 0);
    for (int i = 0; i < set.n; ++i)
        names[i] = set.names[i];
    struct prof_config c;
    struct prof_error e = {0};
    assert_int_equal(prof_config_build(host, names, set.n, &c, &e), PROF_OK);
    assert_true(c.passes > 1);
    assert_int_equal(c.n_metrics, set.n);
    prof_config_free(&c);
}

/* The pass counts docs/metrics.md states, as CUPTI's host API gives them for GH100 (checked by hand with
 * cuptiProfilerHostGetNumOfPasses): the tensor group alone 6 (its fp16 and int8 sums 2 each), the default groups
 * 10 without it and 16 with it. A fresh host object for each: CUPTI adds a configuration's metrics to the host's. */
static size_t passes_of(const char *groups)
{
    struct metric_set set;
    struct error err = {0};
    struct prof_host *fresh = NULL;
    struct prof_config c;
    struct prof_error e = {0};
    const char *names[MAX_METRICS];
    assert_int_equal(metric_set_build(groups, NULL, &set, &err), 0);
    for (int i = 0; i < set.n; ++i)
        names[i] = set.names[i];
    assert_int_equal(prof_host_open("GH100", &fresh, &e), PROF_OK);
    if (prof_config_build(fresh, names, set.n, &c, &e) != PROF_OK)
        fail_msg("%s: %s", groups, e.message);
    size_t passes = c.passes;
    prof_config_free(&c);
    assert_int_equal(prof_host_close(fresh, &e), PROF_OK);
    return passes;
}

static void the_tensor_group_costs_six_passes(void **state)
{
    (void)state;
    assert_int_equal(passes_of("tensor"), 6);
    assert_int_equal(passes_of("global,shared,dram,roofline,cache,sol"), 10);
    assert_int_equal(passes_of("global,shared,dram,roofline,cache,sol,tensor"), 16);
}

/* The findings' metrics ride on the default groups' passes: nine instrumented counts share the instrumented pass, and
 * the five hardware counters fit beside the others. */
static void the_causes_group_adds_no_pass_to_the_default_groups(void **state)
{
    (void)state;
    assert_int_equal(passes_of("causes"), 2);
    assert_int_equal(passes_of("global,shared,dram,roofline,cache,sol,tensor,causes"), 16);
}

/* The tensor and FP64 pipes that replaced GH100's shared pipe share one pass, as it took one alone. */
static void the_tensor_and_fp64_pipes_take_one_pass(void **state)
{
    (void)state;
    const char *names[] = {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
                           "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active"};
    struct prof_host *fresh = NULL;
    struct prof_config c;
    struct prof_error e = {0};
    assert_int_equal(prof_host_open("GH100", &fresh, &e), PROF_OK);
    assert_int_equal(prof_config_build(fresh, names, 2, &c, &e), PROF_OK);
    assert_int_equal(c.passes, 1);
    prof_config_free(&c);
    assert_int_equal(prof_host_close(fresh, &e), PROF_OK);
}

/* The names DESIGN-39 proposed that GH100's CUPTI refuses, so that the catalog does not carry them. */
static void per_family_forms_of_other_types_are_spelt_otherwise(void **state)
{
    (void)state;
    struct prof_error e = {0};
    assert_int_equal(prof_metric_validate(host, "sm__ops_path_tensor_op_hgmma_src_fp8_sparsity_off.sum", &e),
                     PROF_UNKNOWN_METRIC);
    assert_int_equal(prof_metric_validate(host, "sm__ops_path_tensor_op_hmma_src_fp16_sparsity_off.sum", &e),
                     PROF_UNKNOWN_METRIC);
    assert_int_equal(prof_metric_validate(host, "sm__ops_path_tensor_op_hmma_src_fp16_dst_fp32.sum", &e), PROF_OK);
}

static void a_configuration_names_the_unknown_metric_among_good_ones(void **state)
{
    (void)state;
    const char *names[] = {"dram__bytes_read.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ldd.sum"};
    struct prof_config c;
    struct prof_error e = {0};
    assert_int_equal(prof_config_build(host, names, 2, &c, &e), PROF_UNKNOWN_METRIC);
    assert_non_null(strstr(e.message, "l1tex__t_sectors_pipe_lsu_mem_global_op_ldd.sum"));
    assert_non_null(strstr(e.message, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    prof_config_free(&c);
}

/* A name that is only part of a supported one (GH10 in GH100) is still an unsupported chip. */
static void a_chip_cupti_does_not_list_is_unsupported(void **state)
{
    (void)state;
    struct prof_host *other = NULL;
    struct prof_error e = {0};
    assert_int_equal(prof_host_open("GH10", &other, &e), PROF_UNSUPPORTED_CHIP);
    assert_null(other);
    assert_non_null(strstr(e.message, "GH100"));
}

static void kernel_symbols_are_demangled(void **state)
{
    (void)state;
    char name[256];
    prof_demangle("_Z12tiled_kernelIfLi32EEvPKT_S2_PS0_i", name, sizeof name);
    assert_string_equal(name, "void tiled_kernel<float, 32>(float const*, float const*, float*, int)");
    prof_demangle("plain_c_kernel", name, sizeof name);
    assert_string_equal(name, "plain_c_kernel");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_default_metric_is_valid_for_gh100),
        cmocka_unit_test(a_misspelt_metric_is_refused_with_the_right_suggestion),
        cmocka_unit_test(a_metric_with_no_near_name_is_still_refused),
        cmocka_unit_test(units_come_from_the_metric_tables),
        cmocka_unit_test(an_unknown_chip_is_refused_naming_the_supported_ones),
        cmocka_unit_test(one_hardware_counter_needs_one_pass),
        cmocka_unit_test(the_default_set_needs_several_passes),
        cmocka_unit_test(a_configuration_names_the_unknown_metric_among_good_ones),
        cmocka_unit_test(the_tensor_group_costs_six_passes),
        cmocka_unit_test(the_causes_group_adds_no_pass_to_the_default_groups),
        cmocka_unit_test(the_tensor_and_fp64_pipes_take_one_pass),
        cmocka_unit_test(per_family_forms_of_other_types_are_spelt_otherwise),
        cmocka_unit_test(a_chip_cupti_does_not_list_is_unsupported),
        cmocka_unit_test(kernel_symbols_are_demangled),
    };
    return cmocka_run_group_tests_name("metric_host", tests, open_host, close_host);
}
