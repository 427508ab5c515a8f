/*
 * GPU tests: every registered variant is correct at odd and even widths, and
 * at rectangular shapes or refuses them with its reason; the check catches
 * broken kernels; the two references agree; timing honours its policy. Each
 * test skips where no GPU can be used. MEMSCOPE_TEST_FILTER runs only the
 * tests whose names match it (cmocka's wildcards * and ?), as
 * '*_correct_at_8192x*' runs the transformer's GEMMs alone.
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
#include "../../harness/run/launch.h"
#include "../../harness/check/operands.h"
#include "../../harness/check/reference.h"
#include "../support/broken_matmul.h"
#include "../support/gpu_fixture.h"

static const int widths[] = {1, 2, 8, 33, 64, 100, 1000, 1024, 2056, 4097, 4104};
#define N_WIDTHS (sizeof widths / sizeof widths[0])

/* Rectangular products (rows x cols x inner): odd extents; multiples of 8 that fill no tile (1000 rows, 136 columns,
 * 520 deep; wide and shallow; tall; fitted_tiles' 144 x 128 tiles and square_tiles' 192 x 192 in one round, the
 * last row and column of tiles part full; on 132 SMs short_tiles takes 64 x 64 at 1000 x 136 x 520 and at W = 8 and
 * 64, 64 x 128 at 264 x 2056 x 72, 2056 x 264 x 1032, W = 1000 and 1024, all in one round, and 64 x 128 in two rounds
 * at 152 x 8456 x 264, 201 tiles, the last row of 24 rows); then the four GEMMs of a transformer block's forward pass
 * at 8192 tokens, for the variants that take other shapes than squares (the others refuse the small ones already). */
static const struct matmul_shape small_shapes[] = {{100, 33, 65},      {1000, 136, 520},   {264, 2056, 72},
                                                   {2056, 264, 1032},  {1533, 1528, 1000}, {2056, 2000, 264},
                                                   {152, 8456, 264}};
static const struct matmul_shape large_shapes[] = {
    {8192, 3072, 1024}, {8192, 1024, 1024}, {8192, 4096, 1024}, {8192, 1024, 4096}};
#define N_SMALL_SHAPES (sizeof small_shapes / sizeof small_shapes[0])
#define N_LARGE_SHAPES (sizeof large_shapes / sizeof large_shapes[0])

struct variant_case {
    const struct matmul_variant *variant;
    struct matmul_shape shape;
    char name[96];
};

/* The lessons and the FP32 ladder are written for square products; the tensor ladder's kernels and the libraries
 * take any shape. */
static bool square_only(const struct matmul_variant *v)
{
    return v->kernel != NULL && matmul_tensor_ladder_step(v->name) == 0;
}

/* What a variant must say when it refuses a shape, or NULL where it must compute it. The tensor ladder's rungs from
 * ldmatrix on copy 16-byte rows of M, N and P: they refuse exactly the shapes whose inner extent or columns are not
 * a multiple of 8 bf16 (mma_global and the libraries take every shape). */
static const char *expected_refusal(const struct matmul_variant *v, struct matmul_shape s)
{
    if (square_only(v) && !matmul_is_square(s))
        return "square products only";
    bool aligned_rows_only = matmul_tensor_ladder_step(v->name) > 1 && v->kernel != NULL;
    if (aligned_rows_only && (s.inner % 8 != 0 || s.cols % 8 != 0))
        return "16-byte aligned";
    return NULL;
}

static void variant_is_correct(void **state)
{
    const struct variant_case *c = *state;
    if (!have_gpu)
        skip();
    struct error e = {0};
    struct check_result r;
    uint64_t seed = 1000003u * (uint64_t)c->shape.rows + 1009u * (uint64_t)c->shape.cols + (uint64_t)c->shape.inner;
    assert_int_equal(job_check(&gpu, c->variant, c->shape, seed, &r, &e), 0);
    const char *refusal = expected_refusal(c->variant, c->shape);
    if (refusal) {
        if (!r.refused)
            print_error("%s: computed, expected a refusal (%s)\n", c->name, refusal);
        assert_non_null(r.refused);
        assert_non_null(strstr(r.refused, refusal));
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
    assert_int_equal(job_check(&gpu, &skips_last_row, matmul_square(100), 7, &r, &e), 0);
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
    assert_int_equal(job_check(&gpu, &one_wrong_element, matmul_square(1000), 7, &r, &e), 0);
    assert_false(r.passed);
    assert_int_equal(r.non_finite, 0);
    assert_int_equal(r.worst_index, 500 * 1000 + 333);
}

static void cublas_reference_agrees_with_cpu_at(struct matmul_shape s)
{
    assert_string_equal(reference_name(s), "cublas_fp64");
    size_t m_count = (size_t)s.rows * s.inner, n_count = (size_t)s.inner * s.cols, p_count = (size_t)s.rows * s.cols;
    double *m = malloc(m_count * sizeof *m), *n = malloc(n_count * sizeof *n);
    double *cpu = malloc(p_count * sizeof *cpu), *gpu_ref = malloc(p_count * sizeof *gpu_ref);
    assert_non_null(m && n && cpu && gpu_ref);
    operands_fill_random(m, m_count, 1, MATMUL_FP64);
    operands_fill_random(n, n_count, 2, MATMUL_FP64);
    reference_cpu(m, n, cpu, s);
    struct error e = {0};
    assert_int_equal(reference_compute(&gpu, m, n, gpu_ref, s, &e), 0);
    struct check_result r;
    check_against_reference(gpu_ref, cpu, p_count, 1e-13, &r);
    assert_true(r.passed);
    free(m), free(n), free(cpu), free(gpu_ref);
}

/* A square past the CPU's limit, and a rectangle whose three extents differ (cuBLAS's leading dimensions). */
static void cublas_reference_agrees_with_cpu(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    cublas_reference_agrees_with_cpu_at(matmul_square(CPU_REFERENCE_MAX_WIDTH + 88));
    cublas_reference_agrees_with_cpu_at((struct matmul_shape){.rows = 600, .cols = 520, .inner = 700});
}

static void time_with(const struct timing_policy *policy, struct timing *t)
{
    const struct matmul_variant *v = matmul_find("tiled_32");
    const int w = 256;
    size_t bytes = (size_t)w * w * sizeof(float);
    void *buf[3];
    for (int i = 0; i < 3; ++i)
        assert_int_equal(cudaMalloc(&buf[i], bytes), cudaSuccess);
    struct matmul_operands ops = {buf[0], buf[1], buf[2], matmul_square(w), gpu.stream, gpu.cublas};
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
    size_t most = count * (N_WIDTHS + N_SMALL_SHAPES + N_LARGE_SHAPES), n_cases = 0;
    struct variant_case *cases = calloc(most, sizeof *cases);
    struct CMUnitTest *tests = calloc(most + 7, sizeof *tests);
    if (!cases || !tests)
        return 1;
    for (size_t v = 0; v < count; ++v) {
        struct matmul_shape shapes[N_WIDTHS + N_SMALL_SHAPES + N_LARGE_SHAPES];
        size_t n = 0;
        for (size_t i = 0; i < N_WIDTHS; ++i)
            shapes[n++] = matmul_square(widths[i]);
        for (size_t i = 0; i < N_SMALL_SHAPES; ++i)
            shapes[n++] = small_shapes[i];
        for (size_t i = 0; i < N_LARGE_SHAPES && !square_only(&variants[v]); ++i)
            shapes[n++] = large_shapes[i];
        for (size_t i = 0; i < n; ++i, ++n_cases) {
            struct variant_case *c = &cases[n_cases];
            char label[PRODUCT_SHAPE_LEN];
            *c = (struct variant_case){.variant = &variants[v], .shape = shapes[i]};
            snprintf(c->name, sizeof c->name, "%s_correct_at_%s", c->variant->name, job_size_label(c->shape, label));
            tests[n_cases] = (struct CMUnitTest){c->name, variant_is_correct, NULL, NULL, c};
        }
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
    if (getenv("MEMSCOPE_TEST_FILTER"))
        cmocka_set_test_filter(getenv("MEMSCOPE_TEST_FILTER"));
    int failed = _cmocka_run_group_tests("matmul_gpu", tests, n_cases + sizeof fixed / sizeof fixed[0], open_gpu,
                                         close_gpu);
    free(tests);
    free(cases);
    return failed;
}
