/*
 * The tensor ground-truth kernels on the GPU (skipped without one): the mma.sync kernel runs its chain, each
 * repetition adding the same product (so twice the repetitions give twice the sums, and none gives zero); the
 * cuBLAS GEMM of every type is enqueued at a tile multiple and off it; the ldmatrix kernel's lanes receive the words
 * ldmatrix.x4 defines for its layout (lane t gets, of matrix j, the word 4 (t % 4) bytes into the row whose address
 * lane 8 j + t / 4 gave). Their counts are --validate's to check.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../kernels/truth/truth.h"
#include "../support/gpu_fixture.h"

#define BLOCKS 4
#define WARPS 2
#define THREADS (BLOCKS * WARPS * 32)

static void mma_sums(int repetitions, float *host)
{
    float *out;
    assert_int_equal(cudaMalloc((void **)&out, THREADS * sizeof(float)), cudaSuccess);
    assert_null(truth_mma_bf16(out, BLOCKS, WARPS, repetitions, gpu.stream));
    assert_int_equal(cudaMemcpyAsync(host, out, THREADS * sizeof(float), cudaMemcpyDeviceToHost, gpu.stream),
                     cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(gpu.stream), cudaSuccess);
    assert_int_equal(cudaFree(out), cudaSuccess);
}

static void the_mma_chain_adds_its_product_each_repetition(void **state)
{
    (void)state;
    static float none[THREADS], once[THREADS], twice[THREADS];
    if (!have_gpu)
        skip();
    mma_sums(0, none);
    mma_sums(3, once);
    mma_sums(6, twice);
    for (int i = 0; i < THREADS; ++i) {
        assert_true(none[i] == 0.0f);
        assert_true(isfinite(once[i]) && once[i] != 0.0f);
        if (fabsf(twice[i] - 2.0f * once[i]) > 1e-5f * fabsf(twice[i]))
            fail_msg("thread %d: 6 repetitions sum to %g, 3 to %g", i, twice[i], once[i]);
    }
}

static void cublas_gemms_of_every_type_run(void **state)
{
    (void)state;
    static const int shapes[][3] = {{256, 256, 256}, {1000, 3000, 520}};
    void *a, *b, *p;
    size_t bytes = (size_t)3000 * 1000 * sizeof(float);
    if (!have_gpu)
        skip();
    assert_int_equal(cudaMalloc(&a, bytes), cudaSuccess);
    assert_int_equal(cudaMalloc(&b, bytes), cudaSuccess);
    assert_int_equal(cudaMalloc(&p, bytes), cudaSuccess);
    assert_int_equal(cudaMemset(a, 0, bytes), cudaSuccess);
    assert_int_equal(cudaMemset(b, 0, bytes), cudaSuccess);
    for (int type = TRUTH_BF16; type <= TRUTH_TF32; ++type)
        for (int s = 0; s < 2; ++s)
            assert_null(truth_cublas_gemm(gpu.cublas, (enum truth_tensor_type)type, shapes[s][0], shapes[s][1],
                                          shapes[s][2], a, b, p));
    assert_int_equal(cudaStreamSynchronize(gpu.stream), cudaSuccess);
    assert_int_equal(cudaFree(a), cudaSuccess);
    assert_int_equal(cudaFree(b), cudaSuccess);
    assert_int_equal(cudaFree(p), cudaSuccess);
}

/* The word lane t receives of matrix j: tile word i holds 0x3F803F80 + i (kernels/truth/truth_ldmatrix.cu). */
static uint32_t ldmatrix_word(int pitch, int swizzled, int j, int t)
{
    int lane = 8 * j + t / 4, row = lane % 16, chunk = lane / 16;
    int byte = row * pitch + 16 * (swizzled ? chunk ^ (row % 8) : chunk) + 4 * (t % 4);
    return 0x3F803F80u + (uint32_t)(byte / 4);
}

static void ldmatrix_lanes_receive_their_layouts_words(void **state)
{
    (void)state;
    static const int pitches[] = {128, 144, 128};
    static float host[THREADS];
    float *out;
    if (!have_gpu)
        skip();
    assert_int_equal(cudaMalloc((void **)&out, THREADS * sizeof(float)), cudaSuccess);
    for (int layout = TRUTH_LDMATRIX_UNPADDED; layout <= TRUTH_LDMATRIX_SWIZZLED; ++layout) {
        const int repetitions = 3;
        assert_null(truth_ldmatrix(out, (enum truth_ldmatrix_layout)layout, BLOCKS, WARPS, repetitions, gpu.stream));
        assert_int_equal(cudaMemcpyAsync(host, out, sizeof host, cudaMemcpyDeviceToHost, gpu.stream), cudaSuccess);
        assert_int_equal(cudaStreamSynchronize(gpu.stream), cudaSuccess);
        for (int i = 0; i < THREADS; ++i) {
            uint32_t x = 0;
            for (int j = 0; j < 4; ++j)
                x ^= ldmatrix_word(pitches[layout], layout == TRUTH_LDMATRIX_SWIZZLED, j, i % 32);
            float expected = (float)(uint32_t)(repetitions * x);
            if (host[i] != expected)
                fail_msg("layout %d, thread %d: %g, expected %g", layout, i, host[i], expected);
        }
    }
    assert_int_equal(cudaFree(out), cudaSuccess);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_mma_chain_adds_its_product_each_repetition),
        cmocka_unit_test(cublas_gemms_of_every_type_run),
        cmocka_unit_test(ldmatrix_lanes_receive_their_layouts_words),
    };
    return cmocka_run_group_tests_name("truth_gpu", tests, open_gpu, close_gpu);
}
