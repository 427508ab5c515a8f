/* The command line: accepted forms give the documented options, every usage error gives EXIT_USAGE and says why. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/run/cli.h"

/* argv after "memscope", NULL-terminated as getopt expects. */
#define ARGS(...) ((char *[]){"memscope", __VA_ARGS__, NULL})

static int parse(char **argv, struct options *o, struct error *e)
{
    int argc = 0;
    while (argv[argc])
        ++argc;
    return cli_parse(argc, argv, o, e);
}

static void parse_ok(char **argv, struct options *o)
{
    struct error e = {0};
    int rc = parse(argv, o, &e);
    if (rc != 0)
        fail_msg("cli_parse failed (%d): %s", rc, e.message);
    assert_int_equal(e.code, EXIT_OK);
}

static void expect_usage_error(char **argv, const char *expected_in_message)
{
    struct options o;
    struct error e = {0};
    assert_int_equal(parse(argv, &o, &e), EXIT_USAGE);
    assert_int_equal(e.code, EXIT_USAGE);
    if (!strstr(e.message, expected_in_message))
        fail_msg("message \"%s\" lacks \"%s\"", e.message, expected_in_message);
}

/* Squares of these widths. */
static void expect_sizes(const struct options *o, const int *sizes, int n)
{
    assert_int_equal(o->n_sizes, n);
    for (int i = 0; i < n; ++i) {
        assert_int_equal(o->sizes[i].rows, sizes[i]);
        assert_int_equal(o->sizes[i].cols, sizes[i]);
        assert_int_equal(o->sizes[i].inner, sizes[i]);
    }
}

static void expect_variants(const struct options *o, const char *const *names, int n)
{
    assert_int_equal(o->n_variants, n);
    for (int i = 0; i < n; ++i)
        assert_string_equal(o->variants[i]->name, names[i]);
}

static void defaults_select_every_variant(void **state)
{
    (void)state;
    struct options o;
    parse_ok((char *[]){"memscope", NULL}, &o);
    size_t count;
    const struct matmul_variant *v = matmul_variants(&count);
    assert_int_equal(o.n_variants, count);
    for (size_t i = 0; i < count; ++i)
        assert_ptr_equal(o.variants[i], &v[i]);
}

static void defaults_sizes_and_timing(void **state)
{
    (void)state;
    struct options o;
    parse_ok((char *[]){"memscope", NULL}, &o);
    expect_sizes(&o, (const int[]){1024, 2048, 4096}, 3);
    assert_int_equal(o.timing.warmup, 3);
    assert_int_equal(o.timing.min_samples, 10);
    assert_int_equal(o.timing.max_samples, 1000);
    assert_true(o.timing.target_spread == 0.005);
    assert_true(o.timing.budget_s == 2.0);
    assert_int_equal(o.device, 0);
    assert_null(o.out_dir);
    assert_int_equal(o.seed, 1);
    assert_false(o.help);
    assert_false(o.list);
}

static void sizes_list(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-s", "1,33,1000"), &o);
    expect_sizes(&o, (const int[]){1, 33, 1000}, 3);
}

static void sizes_range_doubles_by_default(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-s", "256:2048"), &o);
    expect_sizes(&o, (const int[]){256, 512, 1024, 2048}, 4);
}

static void sizes_range_with_additive_step(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("--sizes", "100:400:+100"), &o);
    expect_sizes(&o, (const int[]){100, 200, 300, 400}, 4);
}

static void sizes_range_with_multiplicative_step(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-s", "2:54:x3"), &o);
    expect_sizes(&o, (const int[]){2, 6, 18, 54}, 4);
}

static void sizes_duplicates_removed(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-s", "64,32:128,64,32"), &o);
    expect_sizes(&o, (const int[]){64, 32, 128}, 3);
}

static void sizes_largest_width_accepted(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-s", "46340"), &o);
    expect_sizes(&o, (const int[]){46340}, 1);
}

/* A transformer block's first GEMM at 8192 tokens beside a square of the same work's width. */
static void sizes_of_any_shape(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-s", "8192x3072x1024,1024,8192x3072x1024,1x1x46341"), &o);
    assert_int_equal(o.n_sizes, 3);
    assert_int_equal(o.sizes[0].rows, 8192);
    assert_int_equal(o.sizes[0].cols, 3072);
    assert_int_equal(o.sizes[0].inner, 1024);
    assert_int_equal(o.sizes[1].rows, 1024);
    assert_int_equal(o.sizes[1].inner, 1024);
    assert_int_equal(o.sizes[2].inner, 46341); /* 1 x 46341 and 46341 x 1: far from 2^31 elements */
}

static void variants_pattern_selects_tiled(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-v", "tiled*"), &o);
    expect_variants(&o,
                    (const char *const[]){"tiled_16", "tiled_32", "tiled_corner_turning", "tiled_transposed",
                                          "tiled_transposed_padded", "tiled_32_fp64"},
                    6);
}

static void variants_pattern_with_precision_fp64(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-v", "tiled*", "-p", "fp64"), &o);
    expect_variants(&o, (const char *const[]){"tiled_32_fp64"}, 1);
}

static void variants_list_keeps_registry_order_without_duplicates(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("--variants", "cublas,naive,naive"), &o);
    expect_variants(&o, (const char *const[]){"naive", "cublas"}, 2);
}

static void precision_fp32_drops_fp64_variants(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-p", "fp32"), &o);
    size_t count;
    int fp32 = 0;
    const struct matmul_variant *v = matmul_variants(&count);
    for (size_t i = 0; i < count; ++i)
        fp32 += v[i].precision == MATMUL_FP32;
    assert_int_equal(o.n_variants, fp32);
    for (int i = 0; i < o.n_variants; ++i)
        assert_int_equal(o.variants[i]->precision, MATMUL_FP32);
}

static void target_spread_is_a_percentage(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("--target-spread", "1"), &o);
    assert_true(o.timing.target_spread == 0.01);
}

static void timing_and_output_options(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("--warmup", "0", "--min-samples", "5", "--max-samples", "5", "--budget", "0.5", "--seed", "42",
                  "-d", "1", "-o", "results"),
             &o);
    assert_int_equal(o.timing.warmup, 0);
    assert_int_equal(o.timing.min_samples, 5);
    assert_int_equal(o.timing.max_samples, 5);
    assert_true(o.timing.budget_s == 0.5);
    assert_int_equal(o.seed, 42);
    assert_int_equal(o.device, 1);
    assert_string_equal(o.out_dir, "results");
}

static void keep_operands_only_when_asked(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("--no-metrics"), &o);
    assert_false(o.keep_operands);
    parse_ok(ARGS("--no-metrics", "--keep-operands"), &o);
    assert_true(o.keep_operands);
}

static void list_flag(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("--list"), &o);
    assert_true(o.list);
    assert_false(o.help);
}

static void help_flag(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-h"), &o);
    assert_true(o.help);
    parse_ok(ARGS("--help"), &o);
    assert_true(o.help);
}

static void parse_twice_starts_afresh(void **state)
{
    (void)state;
    struct options o;
    parse_ok(ARGS("-s", "7", "--list"), &o);
    parse_ok(ARGS("-s", "9"), &o);
    assert_false(o.list);
    expect_sizes(&o, (const int[]){9}, 1);
}

static void error_unknown_variant_lists_valid_ones(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-v", "nope"), "'nope'");
    expect_usage_error(ARGS("-v", "nope"), "naive_uncoalesced");
    expect_usage_error(ARGS("-v", "nope"), "cublas_fp64");
}

static void error_size_zero(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "0"), "at least 1");
}

static void error_size_negative(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "-5"), "at least 1");
}

static void error_size_not_a_number(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "abc"), "'abc' is not a whole number");
    expect_usage_error(ARGS("-s", "12abc"), "'12abc' is not a whole number");
}

static void error_size_too_large(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "46341"), "'46341' is too large (at most 46340, the largest width");
}

/* A number beyond what a long or a double holds is still a number: too large, with the limit named. */
static void error_numbers_beyond_their_type_are_too_large(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "99999999999999999999"), "--sizes: '99999999999999999999' is too large (at most 46340");
    expect_usage_error(ARGS("-s", "1024:99999999999999999999"), "is too large (at most 46340");
    expect_usage_error(ARGS("-s", "1:8:x99999999999999999999"), "step 'x99999999999999999999': "
                                                                "'99999999999999999999' is too large (at most 46340)");
    expect_usage_error(ARGS("--budget", "1e308"), "--budget: '1e308' is too large (at most 1e+09)");
    expect_usage_error(ARGS("--budget", "1e999"), "--budget: '1e999' is too large (at most 1e+09)");
    expect_usage_error(ARGS("--target-spread", "1e308"), "--target-spread: '1e308' is too large (at most 1e+09)");
    expect_usage_error(ARGS("--seed", "99999999999999999999"), "--seed: '99999999999999999999' is too large "
                                                               "(at most 9223372036854775807)");
    expect_usage_error(ARGS("--warmup", "99999999999999999999"), "--warmup: '99999999999999999999' is too large "
                                                                 "(at most 1000)");
    expect_usage_error(ARGS("--min-samples", "1000001"), "--min-samples: '1000001' is too large (at most 1000000)");
    expect_usage_error(ARGS("--device", "-99999999999999999999"), "--device: '-99999999999999999999' is too small "
                                                                  "(at least 0)");
}

static void error_size_shape_malformed(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "8192x3072"), "'8192x3072' is not a size");
    expect_usage_error(ARGS("-s", "8192x3072x1024x2"), "'8192x3072x1024x2' is not a size");
    expect_usage_error(ARGS("-s", "8192xx1024"), "'8192xx1024' is not a size");
    expect_usage_error(ARGS("-s", "8192x-1x1024"), "'8192x-1x1024' is not a size");
    expect_usage_error(ARGS("-s", "8192x0x1024"), "'8192x0x1024' is not a size");
    expect_usage_error(ARGS("-s", "0x0x0"), "three whole numbers of at least 1 joined by x");
}

/* Each matrix's elements are a 32-bit index, whichever of the three is the largest. */
static void error_size_shape_beyond_a_32_bit_index(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "65536x1x32768"), "M (rows x inner) has 2147483648 elements");
    expect_usage_error(ARGS("-s", "1x65536x32768"), "N (inner x cols) has 2147483648 elements");
    expect_usage_error(ARGS("-s", "65536x32768x1"), "P (rows x cols) has 2147483648 elements");
    struct options o;
    parse_ok(ARGS("-s", "65535x32768x1"), &o); /* 2^31 - 32768 elements */
    assert_int_equal(o.n_sizes, 1);
}

static void error_size_range_backwards(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "2048:1024"), "backwards");
}

static void error_size_range_bad_step(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "1:8:y2"), "step 'y2'");
    expect_usage_error(ARGS("-s", "1:8:x1"), "step 'x1'");
    expect_usage_error(ARGS("-s", "1:8:+0"), "step '+0'");
}

static void error_size_range_malformed(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "1:8:x2:4"), "a range is A:B");
}

static void error_sizes_empty(void **state)
{
    (void)state;
    expect_usage_error(ARGS("--sizes", ""), "no size given");
}

static void error_precision_unknown(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-p", "fp8"), "'fp8' is not fp32, fp64, bf16, fp16, tf32 or all");
}

/* Each precision --help offers selects its variants, and only them (there are bf16, fp16 and tf32 variants). */
static void every_precision_offered_selects_its_variants(void **state)
{
    (void)state;
    const enum matmul_precision offered[] = {MATMUL_BF16, MATMUL_FP16, MATMUL_TF32};
    char *names[] = {"bf16", "fp16", "tf32"};
    for (size_t k = 0; k < sizeof offered / sizeof offered[0]; ++k) {
        struct options o;
        parse_ok(ARGS("-p", names[k]), &o);
        assert_true(o.n_variants > 0);
        for (int i = 0; i < o.n_variants; ++i)
            assert_int_equal(o.variants[i]->precision, offered[k]);
    }
}

static void error_unknown_option(void **state)
{
    (void)state;
    expect_usage_error(ARGS("--bogus"), "unknown option '--bogus'");
}

static void error_missing_value(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s"), "needs a value");
    expect_usage_error(ARGS("--sizes"), "needs a value");
}

static void error_min_samples_above_max(void **state)
{
    (void)state;
    expect_usage_error(ARGS("--min-samples", "20", "--max-samples", "10"), "--min-samples 20 exceeds --max-samples 10");
}

static void error_precision_leaves_no_variant(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-p", "fp64", "-v", "naive"), "no variant matches");
}

static void error_extra_argument(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "32", "extra"), "unexpected argument 'extra'");
}

static void error_budget_zero(void **state)
{
    (void)state;
    expect_usage_error(ARGS("--budget", "0"), "--budget: '0' is not a positive number");
}

static void error_device_negative(void **state)
{
    (void)state;
    expect_usage_error(ARGS("--device", "-1"), "--device: '-1'");
}

static void error_keep_operands_with_validate(void **state)
{
    (void)state;
    expect_usage_error(ARGS("--validate", "--keep-operands"), "not to --validate");
}

static void error_no_metrics_with_metric_choice(void **state)
{
    (void)state;
    expect_usage_error(ARGS("--no-metrics", "--metrics", "dram__bytes_read.sum"), "--no-metrics cannot go with");
    expect_usage_error(ARGS("--metric-groups", "dram", "--no-metrics"), "--no-metrics cannot go with");
}

static void error_validate_with_matrix_selection(void **state)
{
    (void)state;
    expect_usage_error(ARGS("--validate", "-v", "naive"), "--validate runs the ground-truth kernels");
    expect_usage_error(ARGS("-s", "1024", "--validate"), "--validate runs the ground-truth kernels");
    expect_usage_error(ARGS("--validate", "--precision", "fp32"), "--validate runs the ground-truth kernels");
}

static void error_empty_list_items(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-s", "1024,"), "--sizes: '1024,' has an empty item");
    expect_usage_error(ARGS("-v", "naive,,tiled_32"), "--variants: 'naive,,tiled_32' has an empty item");
    expect_usage_error(ARGS("-v", ",naive"), "has an empty item");
    expect_usage_error(ARGS("--metric-groups", "dram,"), "--metric-groups: 'dram,' has an empty item");
    expect_usage_error(ARGS("--metrics", ""), "--metrics: no metric given");
}

static void error_out_empty(void **state)
{
    (void)state;
    expect_usage_error(ARGS("-o", ""), "empty folder name");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_select_every_variant),
        cmocka_unit_test(defaults_sizes_and_timing),
        cmocka_unit_test(sizes_list),
        cmocka_unit_test(sizes_of_any_shape),
        cmocka_unit_test(error_size_shape_malformed),
        cmocka_unit_test(error_size_shape_beyond_a_32_bit_index),
        cmocka_unit_test(sizes_range_doubles_by_default),
        cmocka_unit_test(sizes_range_with_additive_step),
        cmocka_unit_test(sizes_range_with_multiplicative_step),
        cmocka_unit_test(sizes_duplicates_removed),
        cmocka_unit_test(sizes_largest_width_accepted),
        cmocka_unit_test(variants_pattern_selects_tiled),
        cmocka_unit_test(variants_pattern_with_precision_fp64),
        cmocka_unit_test(variants_list_keeps_registry_order_without_duplicates),
        cmocka_unit_test(precision_fp32_drops_fp64_variants),
        cmocka_unit_test(target_spread_is_a_percentage),
        cmocka_unit_test(timing_and_output_options),
        cmocka_unit_test(keep_operands_only_when_asked),
        cmocka_unit_test(list_flag),
        cmocka_unit_test(help_flag),
        cmocka_unit_test(parse_twice_starts_afresh),
        cmocka_unit_test(error_unknown_variant_lists_valid_ones),
        cmocka_unit_test(error_size_zero),
        cmocka_unit_test(error_size_negative),
        cmocka_unit_test(error_size_not_a_number),
        cmocka_unit_test(error_size_too_large),
        cmocka_unit_test(error_numbers_beyond_their_type_are_too_large),
        cmocka_unit_test(error_size_range_backwards),
        cmocka_unit_test(error_size_range_bad_step),
        cmocka_unit_test(error_size_range_malformed),
        cmocka_unit_test(error_sizes_empty),
        cmocka_unit_test(error_precision_unknown),
        cmocka_unit_test(every_precision_offered_selects_its_variants),
        cmocka_unit_test(error_unknown_option),
        cmocka_unit_test(error_missing_value),
        cmocka_unit_test(error_min_samples_above_max),
        cmocka_unit_test(error_precision_leaves_no_variant),
        cmocka_unit_test(error_extra_argument),
        cmocka_unit_test(error_budget_zero),
        cmocka_unit_test(error_device_negative),
        cmocka_unit_test(error_keep_operands_with_validate),
        cmocka_unit_test(error_no_metrics_with_metric_choice),
        cmocka_unit_test(error_validate_with_matrix_selection),
        cmocka_unit_test(error_empty_list_items),
        cmocka_unit_test(error_out_empty),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
