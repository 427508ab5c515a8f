/*
 * GPU tests: every registered variant is correct at odd and even widths; the
 * check catches broken kernels; the two references agree; timing honours its
 * policy. Each test skips where no GPU can be used.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/run/job.h"
#include "../../harness/check/operands.h"
#include "../../harness/check/reference.h"
#include "../support/broken_matmul.h"
#include "../support/gpu_fixture.h"

static const int widths[] = {1, 2, 8, 33, 64, 100, 1000, 1024, 2056, 4097, 4104};
#define N_WIDTHS (sizeof widths / sizeof widths[0])

struct variant_case {
    const struct matmul_variant *variant;
    int width;
    char name[96];
};

static void variant_is_correct(void **state)
{
    const struct variant_case *c = *state;
    if (!have_gpu)
        skip();
    struct error e = {0};
    struct check_result r;
    assert_int_equal(job_check(&gpu, c->variant, c->width, 1000003u * c->width, &r, &e), 0);
    /* The tensor ladder's rungs from ldmatrix on copy 16-byte rows: they refuse exactly the widths that are not a
     * multiple of 8 bf16 (mma_global and the libraries take every width); every other variant refuses none. */
    bool aligned_rows_only = matmul_tensor_ladder_step(c->variant->name) > 1 && c->variant->kernel != NULL;
    if (aligned_rows_only && c->width % 8 != 0) {
        assert_non_null(r.refused);
        assert_non_null(strstr(r.refused, "16-byte aligned"));
        return;
    }
    if (r.refused)
        print_error("%s: refused: %s\n", c->name, r.refused);
    assert_null(r.refused);
    if (!r.passed)
        print_error("%s: max error %g (tolerance %g), %zu non-finite\n", c->name, r.max_error, r.tolerance,
                    r.non_finite);
    assert_true(r.passed);
}

static const struct matmul_variant skips_last_row = {
    "broken_skips_last_row", MATMUL_FP32, MATMUL_ROW_MAJOR, "test only", 32, 32, 32, 32, broken_skips_last_row, NULL};
static const struct matmul_variant one_wrong_element = {
    "broken_one_wrong_element", MATMUL_FP32, MATMUL_ROW_MAJOR, "test only", 32, 32, 32, 32, broken_one_wrong_element, NULL};

static void check_catches_unwritten_row(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    struct error e = {0};
    struct check_result r;
    assert_int_equal(job_check(&gpu, &skips_last_row, 100, 7, &r, &e), 0);
    assert_false(r.passed);
    assert_int_equal(r.non_finite, 100);
}

static void check_catches_one_wrong_element(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    struct error e = {0};
    struct check_result r;
    assert_int_equal(job_check(&gpu, &one_wrong_element, 1000, 7, &r, &e), 0);
    assert_false(r.passed);
    assert_int_equal(r.non_finite, 0);
    assert_int_equal(r.worst_index, 500 * 1000 + 333);
}

static void cublas_reference_agrees_with_cpu(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    const int w = CPU_REFERENCE_MAX_WIDTH + 88;
    size_t count = (size_t)w * w;
    double *m = malloc(count * sizeof *m), *n = malloc(count * sizeof *n);
    double *cpu = malloc(count * sizeof *cpu), *gpu_ref = malloc(count * sizeof *gpu_ref);
    assert_non_null(m && n && cpu && gpu_ref);
    operands_fill_random(m, count, 1, MATMUL_FP64);
    operands_fill_random(n, count, 2, MATMUL_FP64);
    reference_cpu(m, n, cpu, w);
    struct error e = {0};
    assert_int_equal(reference_compute(&gpu, m, n, gpu_ref, w, &e), 0);
    struct check_result r;
    check_against_reference(gpu_ref, cpu, count, 1e-13, &r);
    assert_true(r.passed);
    free(m), free(n), free(cpu), free(gpu_ref);
}

static void time_with(const struct timing_policy *policy, struct timing *t)
{
    const struct matmul_variant *v = matmul_find("tiled_32");
    const int w = 256;
    size_t bytes = (size_t)w * w * sizeof(float);
    void *buf[3];
    for (int i = 0; i < 3; ++i)
        assert_int_equal(cudaMalloc(&buf[i], bytes), cudaSuccess);
    struct matmul_operands ops = {buf[0], buf[1], buf[2], w, gpu.stream, gpu.cublas};
    struct progress quiet = {0};
    struct error e = {0};
    assert_int_equal(timing_sample(&gpu, v, &ops, policy, &quiet, t, &e), 0);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(cudaFree(buf[i]), cudaSuccess);
}

static void timing_stops_at_max_samples(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    struct timing_policy policy = {.warmup = 1, .min_samples = 5, .max_samples = 5, .target_spread = 1e-12,
                                   .budget_s = 100};
    struct timing t;
    time_with(&policy, &t);
    assert_int_equal(t.n, 5);
    assert_string_equal(t.stop_reason, "max_samples");
    for (int i = 0; i < t.n; ++i)
        assert_true(t.samples_ms[i] > 0.0);
    assert_true(t.stats.min <= t.stats.median && t.stats.median <= t.stats.max);
    timing_free(&t);
}

static void timing_stops_when_converged(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    struct timing_policy policy = {.warmup = 1, .min_samples = 3, .max_samples = 1000, .target_spread = 10.0,
                                   .budget_s = 100};
    struct timing t;
    time_with(&policy, &t);
    assert_int_equal(t.n, 3);
    assert_string_equal(t.stop_reason, "converged");
    timing_free(&t);
}

static void memory_check_refuses_what_cannot_fit(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    struct error e = {0};
    assert_int_equal(gpu_require_free_memory(&gpu, (size_t)1 << 44, "a 16 TiB job", &e), EXIT_USAGE);
    assert_non_null(strstr(e.message, "GiB free"));
}

int main(void)
{
    size_t count;
    const struct matmul_variant *variants = matmul_variants(&count);
    size_t n_cases = count * N_WIDTHS;
    struct variant_case *cases = calloc(n_cases, sizeof *cases);
    struct CMUnitTest *tests = calloc(n_cases + 7, sizeof *tests);
    if (!cases || !tests)
        return 1;
    for (size_t i = 0; i < n_cases; ++i) {
        cases[i].variant = &variants[i / N_WIDTHS];
        cases[i].width = widths[i % N_WIDTHS];
        snprintf(cases[i].name, sizeof cases[i].name, "%s_correct_at_W%d", cases[i].variant->name, cases[i].width);
        tests[i] = (struct CMUnitTest){cases[i].name, variant_is_correct, NULL, NULL, &cases[i]};
    }
    const struct CMUnitTest fixed[] = {
        cmocka_unit_test(check_catches_unwritten_row),
        cmocka_unit_test(check_catches_one_wrong_element),
        cmocka_unit_test(cublas_reference_agrees_with_cpu),
        cmocka_unit_test(timing_stops_at_max_samples),
        cmocka_unit_test(timing_stops_when_converged),
        cmocka_unit_test(memory_check_refuses_what_cannot_fit),
    };
    memcpy(tests + n_cases, fixed, sizeof fixed);
    int failed = _cmocka_run_group_tests("matmul_gpu", tests, n_cases + sizeof fixed / sizeof fixed[0], open_gpu,
                                         close_gpu);
    free(tests);
    free(cases);
    return failed;
}
