/*
 * GPU tests of the ceiling kernels (kernels/ceilings/) and their measurement (harness/ceilings/measure.c): the
 * copy copies every word, over any count and any number of passes; the other kernels never write their sink (the
 * tensor kernels of each type too, where the build and GPU have wgmma); a measurement records every ceiling (the
 * tensor ones there, else the reason they were not measured), in the order the memory hierarchy implies, each
 * plausible against the datasheet (what --validate checks), in well under a second. Each test skips where no GPU
 * can be used.
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

#include "../../harness/ceilings/measure.h"
#include "../../harness/common/host_clock.h"
#include "../../harness/gpu/environment.h"
#include "../../kernels/ceilings/ceilings.h"
#include "../support/gpu_fixture.h"

#define CUDA_OK(call) assert_int_equal((call), cudaSuccess)

/* Counts around the copy's batches of four words per thread, passes 1 and 3, a small grid and a full one. */
static void the_copy_copies_every_word(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    static const size_t counts[] = {1, 3, 1000, 1024 * 4 + 5, 3 * 1000 * 1000 + 7};
    static const int blocks[] = {1, 7, 132 * 8};
    size_t largest = counts[sizeof counts / sizeof counts[0] - 1];
    float4 *in, *out, *host_in = malloc(largest * sizeof(float4)), *host_out = malloc(largest * sizeof(float4));
    assert_non_null(host_in);
    assert_non_null(host_out);
    for (size_t i = 0; i < largest; ++i)
        host_in[i] = (float4){(float)i, (float)(i % 7), -(float)i, 0.5f};
    CUDA_OK(cudaMalloc((void **)&in, largest * sizeof(float4)));
    CUDA_OK(cudaMalloc((void **)&out, largest * sizeof(float4)));
    CUDA_OK(cudaMemcpy(in, host_in, largest * sizeof(float4), cudaMemcpyHostToDevice));
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c)
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; ++b)
            for (int passes = 1; passes <= 3; passes += 2) {
                CUDA_OK(cudaMemset(out, 0xff, largest * sizeof(float4))); /* NaN everywhere */
                assert_null(ceiling_copy(in, out, counts[c], passes, blocks[b], gpu.stream));
                CUDA_OK(cudaStreamSynchronize(gpu.stream));
                CUDA_OK(cudaMemcpy(host_out, out, largest * sizeof(float4), cudaMemcpyDeviceToHost));
                assert_memory_equal(host_out, host_in, counts[c] * sizeof(float4));
                /* and nothing past the count */
                if (counts[c] < largest)
                    assert_true(isnan(host_out[counts[c]].x));
            }
    CUDA_OK(cudaFree(in));
    CUDA_OK(cudaFree(out));
    free(host_in);
    free(host_out);
}

/* The sink still holds the 0x5a bytes it was filled with; then freed. */
static void expect_sink_untouched(double *sink, double *host, size_t bytes)
{
    CUDA_OK(cudaStreamSynchronize(gpu.stream));
    CUDA_OK(cudaMemcpy(host, sink, bytes, cudaMemcpyDeviceToHost));
    unsigned char expected[64];
    assert_true(bytes <= sizeof expected);
    memset(expected, 0x5a, bytes);
    assert_memory_equal(host, expected, bytes);
    CUDA_OK(cudaFree(sink));
}

static void the_other_kernels_never_write_their_sink(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    double *sink, host[2];
    CUDA_OK(cudaMalloc((void **)&sink, 2 * sizeof(double)));
    CUDA_OK(cudaMemset(sink, 0x5a, 2 * sizeof(double)));
    assert_null(ceiling_shared_loads((float *)sink, 3, 264, gpu.stream));
    assert_null(ceiling_ffma((float *)sink, 3, 264, gpu.stream));
    assert_null(ceiling_dfma(sink, 3, 264, gpu.stream));
    expect_sink_untouched(sink, host, sizeof host);
}

/* The tensor kernels apart: on a GPU they cannot run on (not sm_90a) the test says so and skips, never passes. */
static void the_tensor_kernels_never_write_their_sink(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    const char *no_tensor = ceiling_tensor_unavailable(gpu.prop.major, gpu.prop.minor);
    if (no_tensor) {
        print_message("tensor kernels not run: %s\n", no_tensor);
        skip();
    }
    double *sink, host[2];
    CUDA_OK(cudaMalloc((void **)&sink, 2 * sizeof(double)));
    CUDA_OK(cudaMemset(sink, 0x5a, 2 * sizeof(double)));
    for (int t = 0; t < CEILING_TENSOR_TYPES; ++t)
        assert_null(ceiling_tensor((enum ceiling_tensor_type)t, (float *)sink, 3, 2 * gpu.prop.multiProcessorCount,
                                   gpu.stream));
    expect_sink_untouched(sink, host, sizeof host);
}

static void a_measurement_records_every_plausible_ceiling_quickly(void **state)
{
    (void)state;
    if (!have_gpu)
        skip();
    static struct environment env;
    struct error e = {0};
    struct ceiling_rates measured, datasheet;
    struct ceiling_check judged[CEILING_COUNT];
    memset(&env, 0, sizeof env);
    assert_int_equal(env_collect_gpu(&env, &gpu, &e), 0);
    double start = host_seconds();
    if (ceilings_measure(&gpu, &env, &e))
        fail_msg("%s", e.message);
    double seconds = host_seconds() - start;
    ceilings_from_environment(&env, &measured, &datasheet);
    ceiling_judge(&measured, &datasheet, judged);
    int failed = 0;
    const char *no_tensor = ceiling_tensor_unavailable(gpu.prop.major, gpu.prop.minor);
    for (int c = 0; c < CEILING_COUNT; ++c) {
        const struct ceiling_check *k = &judged[c];
        print_message("%-26s measured %10.1f %-7s datasheet %10.1f  [%.1f, %.1f]  %s: %s\n", ceiling_key(c),
                      k->measured, ceiling_unit(c), k->expected, k->lower, k->upper, k->rule, k->pass ? "pass" : "FAIL");
        failed += !k->pass;
        if (ceiling_is_tensor(c) && no_tensor) {
            assert_null(env_value(&env, ceiling_key(c))); /* never a figure it did not measure */
            assert_string_equal(env_value(&env, CEILING_TENSOR_NOT_MEASURED_KEY), no_tensor);
            continue;
        }
        assert_non_null(env_value(&env, ceiling_key(c)));
        assert_true(isfinite(measured.value[c]) && measured.value[c] > 0);
    }
    if (!no_tensor) /* the same tensor cores: bf16 and fp16 at one rate, tf32 at half of it, fp8 at twice */
        assert_true(fabs(measured.value[CEILING_TENSOR_FP16] / measured.value[CEILING_TENSOR_BF16] - 1) < 0.1 &&
                    measured.value[CEILING_TENSOR_TF32] < measured.value[CEILING_TENSOR_BF16] &&
                    measured.value[CEILING_TENSOR_FP8] > measured.value[CEILING_TENSOR_BF16]);
    print_message("ceilings measured in %.3f s\n", seconds);
    assert_true(measured.value[CEILING_DRAM] < measured.value[CEILING_L2]);
    assert_true(measured.value[CEILING_L2] < measured.value[CEILING_L1_SHARED]);
    assert_int_equal(failed, 0);
    assert_true(seconds < 1.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_copy_copies_every_word),
        cmocka_unit_test(the_other_kernels_never_write_their_sink),
        cmocka_unit_test(the_tensor_kernels_never_write_their_sink),
        cmocka_unit_test(a_measurement_records_every_plausible_ceiling_quickly),
    };
    return cmocka_run_group_tests_name("ceilings_gpu", tests, open_gpu, close_gpu);
}
