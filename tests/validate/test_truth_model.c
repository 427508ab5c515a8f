/* The ground-truth model against closed forms: 32-byte sectors, 4-byte floats, warps of 32 lanes,
 * 32 shared-memory banks of 4 bytes, at most 128 bytes per wavefront. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../harness/validate/truth_model.h"

#define N_BIG (1 << 16)

static void assert_close(double actual, double expected)
{
    if (!(fabs(actual - expected) <= 1e-12 * fmax(1.0, fabs(expected))))
        fail_msg("got %.17g, expected %.17g", actual, expected);
}

static int gcd(int a, int b)
{
    while (b) {
        int r = a % b;
        a = b;
        b = r;
    }
    return a;
}

static const int strides[] = {1, 2, 3, 4, 8, 16, 32, 64};
#define N_STRIDES ((int)(sizeof strides / sizeof strides[0]))

static void strided_sectors_per_request(void **state)
{
    (void)state;
    /* Lane i reads byte i * s * 4, sector i * s / 8. For s < 8 the lanes step through consecutive sectors
     * without gaps, 32 lanes spanning 32 * s * 4 bytes = 4 * s sectors; for s >= 8 every lane has a sector
     * of its own, 32. So min(4 * s, 32); every warp of a multiple of 32 threads is alike. */
    for (int k = 0; k < N_STRIDES; ++k) {
        int s = strides[k];
        double expected = 4 * s < 32 ? 4 * s : 32;
        double got = model_copy_sectors_per_request(N_BIG, s, 0);
        if (got != expected)
            fail_msg("stride %d: %g sectors/request, expected %g", s, got, expected);
    }
}

static void strided_load_efficiency(void **state)
{
    (void)state;
    /* A warp asks for 32 * 4 = 128 bytes; the sectors carry 32 * min(4 s, 32) bytes.
     * 128 / (128 s) = 1 / s for s <= 8, 128 / 1024 = 12.5 % for s >= 8. */
    for (int k = 0; k < N_STRIDES; ++k) {
        int s = strides[k];
        double expected = s <= 8 ? 100.0 / s : 12.5;
        double got = model_copy_load_efficiency(N_BIG, s, 0);
        if (fabs(got - expected) > 1e-12 * expected)
            fail_msg("stride %d: %.17g %%, expected %.17g %%", s, got, expected);
    }
}

static void offset_misaligns_unless_multiple_of_eight(void **state)
{
    (void)state;
    /* Stride 1: a warp reads 32 consecutive floats = 128 bytes from element t + o, t a multiple of 32.
     * Aligned to a sector (o % 8 == 0, 8 floats a sector) that is 4 sectors; otherwise the 128 bytes
     * straddle 5 sectors, and 128 / (5 * 32) = 80 %. */
    for (int o = 0; o <= 32; ++o) {
        double sectors = o % 8 == 0 ? 4 : 5;
        double efficiency = o % 8 == 0 ? 100 : 80;
        double got_sectors = model_copy_sectors_per_request(N_BIG, 1, o);
        double got_efficiency = model_copy_load_efficiency(N_BIG, 1, o);
        if (got_sectors != sectors || fabs(got_efficiency - efficiency) > 1e-12 * efficiency)
            fail_msg("offset %d: %g sectors/request and %g %%, expected %g and %g %%", o, got_sectors,
                     got_efficiency, sectors, efficiency);
    }
}

static void partial_last_warp(void **state)
{
    (void)state;
    /* n = 40: warp 0 has 32 lanes, floats 0..31 = 4 sectors; warp 1 has 8 lanes, floats 32..39 = one
     * sector. (4 + 1) / 2 requests = 2.5. */
    assert_close(model_copy_sectors_per_request(40, 1, 0), 2.5);
    /* 40 * 4 = 160 bytes asked for, 5 sectors * 32 = 160 carried: 100 %. */
    assert_close(model_copy_load_efficiency(40, 1, 0), 100);
}

static void shared_32bit_wavefronts_are_gcd(void **state)
{
    (void)state;
    /* Lane i uses bank (i * s) % 32. The lanes sharing a bank, each with its own word, number
     * 32 / (32 / gcd(s, 32)) = gcd(s, 32); the 128 bytes fit one wavefront, so that is the count. */
    for (int s = 1; s <= 64; ++s) {
        int expected = gcd(s, 32), got = model_shared_wavefronts(s, 4);
        if (got != expected)
            fail_msg("stride %d, 4-byte words: %d wavefronts, expected %d", s, got, expected);
    }
}

static void shared_64bit_wavefronts(void **state)
{
    (void)state;
    /* Lane i covers 4-byte words 2 i s and 2 i s + 1, banks 2 ((i s) % 16) and the odd one after it.
     * (i s) % 16 takes 16 / gcd(s, 16) values over the 32 lanes, each 2 gcd(s, 16) times with distinct
     * words; and 32 * 8 = 256 bytes need at least 2 wavefronts of 128, which 2 gcd(s, 16) >= 2 meets. */
    for (int s = 1; s <= 16; ++s) {
        int expected = 2 * gcd(s, 16), got = model_shared_wavefronts(s, 8);
        if (got != expected)
            fail_msg("stride %d, 8-byte words: %d wavefronts, expected %d", s, got, expected);
    }
}

static void shared_128bit_contiguous_needs_four(void **state)
{
    (void)state;
    /* 32 lanes * 16 bytes = 512 bytes = 4 wavefronts of 128 at least; lanes i, i + 8, i + 16, i + 24
     * share banks 4 (i % 8) .. 4 (i % 8) + 3, four words each: exactly 4. */
    assert_int_equal(model_shared_wavefronts(1, 16), 4);
}

/* An ldmatrix.x4's matrix is 8 rows of 16 bytes, read together. Rows 128 bytes apart start in the same 4 banks, each
 * of its words a distinct one: 8 wavefronts a matrix, 32 an instruction (the H100 counted 6,291,456 LDSM wavefronts
 * for 196,608 LDSM of the tensor ladder's unpadded rung at W = 1024). Rows 144 bytes apart start 9 bank groups on, so
 * 8 consecutive rows take the 8 groups of 4 banks: 1 a matrix; chunk c of row r at c ^ (r % 8) does the same. */
static void ldmatrix_x4_wavefronts(void **state)
{
    (void)state;
    assert_int_equal(model_ldmatrix_x4_wavefronts(128, 0), 32);
    assert_int_equal(model_ldmatrix_x4_wavefronts(144, 0), 4);
    assert_int_equal(model_ldmatrix_x4_wavefronts(128, 1), 4);
    /* a pitch of 64 bytes: rows r and r + 2 share banks, a 4-way conflict */
    assert_int_equal(model_ldmatrix_x4_wavefronts(64, 0), 16);
    assert_int_equal(model_ldmatrix_x4_wavefronts(256, 0), 32);
}

/* 264 blocks of 4 warps, 100 mma.sync.m16n8k16 each: 105,600 instructions of 16 x 8 x 16 multiply-adds. */
static void mma_sync_operations(void **state)
{
    (void)state;
    assert_true(model_mma_m16n8k16_ops(1, 1) == 4096.0);
    assert_true(model_mma_m16n8k16_ops(264 * 4, 100) == 432537600.0);
}

/* The counts ncu read on an H100 for cuBLAS GEMMs (field notes, "Tensor cores on GH100"). */
static void gemm_operations_at_tile_multiples_are_2mnk(void **state)
{
    (void)state;
    assert_true(model_gemm_tensor_ops(4096, 4096, 4096, 128, 256, 64) == 137438953472.0);
    assert_true(model_gemm_tensor_ops(8192, 2048, 1024, 256, 128, 64) == 34359738368.0);
    assert_true(model_gemm_tensor_ops(1000, 3000, 520, 1, 1, 1) == 3120000000.0);
}

/* 1000x3000x520: bf16 and fp16 read 3,538,944,000 = 2 x 1024 x 3000 x 576 (128 x 200 tiles, k in steps of 64;
 * 1000 x 3072 with the tile the other way round is as many), tf32 3,422,552,064 = 2 x 1024 x 3072 x 544 (M and N
 * to 128, k in steps of 32). */
static void gemm_operations_off_the_tile_are_padded(void **state)
{
    (void)state;
    assert_true(model_gemm_tensor_ops(1000, 3000, 520, 128, 200, 64) == 3538944000.0);
    assert_true(model_gemm_tensor_ops(1000, 3000, 520, 200, 128, 64) == 3538944000.0);
    assert_true(model_gemm_tensor_ops(1000, 3000, 520, 128, 128, 32) == 3422552064.0);
    /* not padding K gives neither */
    assert_true(model_gemm_tensor_ops(1000, 3000, 520, 128, 200, 1) != 3538944000.0);
}

/* The kernels cuBLAS chose for 1000x3000x520 (reports/reference/validate/metrics.csv: an H100 at 9ca7d96, an H200
 * at 5ad9730) and what each measured: the tile read from the name, in the caller's row-major terms, pads the shape
 * to those counts. H100 bf16: nvjet 128x200 (3,538,944,000 = 2 x 1000 x 3072 x 576); H200 bf16: nvjet 192x128
 * (3,623,878,656 = 2 x 1024 x 3072 x 576: 3000 to 16 x 192, 1000 to 8 x 128); both GPUs' tf32: xmma tilesize
 * 64x128x32 (3,422,552,064 = 2 x 1024 x 3072 x 544). */
static double ops_of(const char *kernel)
{
    int tile_m, tile_n, tile_k;
    assert_int_equal(model_cublas_tile(kernel, &tile_m, &tile_n, &tile_k), 1);
    return model_gemm_tensor_ops(1000, 3000, 520, tile_m, tile_n, tile_k);
}

static void a_cublas_kernel_s_tile_is_read_from_its_name(void **state)
{
    (void)state;
    int tile_m = 0, tile_n = 0, tile_k = 0;
    assert_true(ops_of("nvjet_sm90_tst_128x200_64x5_4x1_v_bz_coopA_NNT") == 3538944000.0);
    assert_true(ops_of("nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_NNT") == 3623878656.0);
    assert_true(ops_of("nvjet_sm90_hsh_192x128_64x5_1x2_h_bz_coopB_NNT") == 3623878656.0);
    assert_true(ops_of("sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize64x128x32_warpgroupsize1x1x1_execute_segment_k_"
                       "off_kernel__5x_cublas") == 3422552064.0);
    model_cublas_tile("nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_NNT", &tile_m, &tile_n, &tile_k);
    assert_int_equal(tile_m, 128);
    assert_int_equal(tile_n, 192);
    assert_int_equal(tile_k, 64);
    /* a kernel whose name gives no tile, or not a cuBLAS GEMM's */
    assert_int_equal(model_cublas_tile("cutlass_80_tensorop_bf16_s16816gemm_relu_bf16", &tile_m, &tile_n, &tile_k), 0);
    assert_int_equal(model_cublas_tile("nvjet_sm90_splitk_reduce", &tile_m, &tile_n, &tile_k), 0);
    assert_int_equal(model_cublas_tile("coalesced_copy_kernel(float const*, float*, int)", &tile_m, &tile_n, &tile_k),
                     0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_cublas_kernel_s_tile_is_read_from_its_name),
        cmocka_unit_test(strided_sectors_per_request),
        cmocka_unit_test(strided_load_efficiency),
        cmocka_unit_test(offset_misaligns_unless_multiple_of_eight),
        cmocka_unit_test(partial_last_warp),
        cmocka_unit_test(shared_32bit_wavefronts_are_gcd),
        cmocka_unit_test(shared_64bit_wavefronts),
        cmocka_unit_test(shared_128bit_contiguous_needs_four),
        cmocka_unit_test(ldmatrix_x4_wavefronts),
        cmocka_unit_test(mma_sync_operations),
        cmocka_unit_test(gemm_operations_at_tile_multiples_are_2mnk),
        cmocka_unit_test(gemm_operations_off_the_tile_are_padded),
    };
    return cmocka_run_group_tests_name("truth_model", tests, NULL, NULL);
}
