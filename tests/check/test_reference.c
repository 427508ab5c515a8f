/* The CPU reference product on hand-computed cases, and the choice between CPU and cuBLAS by size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/check/reference.h"

static void assert_product(const double *m, const double *n, const double *expected, int width)
{
    double p[25];
    reference_cpu(m, n, p, matmul_square(width));
    for (int i = 0; i < width * width; ++i)
        if (p[i] != expected[i])
            fail_msg("P[%d][%d] = %g, expected %g", i / width, i % width, p[i], expected[i]);
}

static void product_2x2(void **state)
{
    (void)state;
    const double m[] = {1, 2, 3, 4}, n[] = {5, 6, 7, 8};
    /* [1*5+2*7, 1*6+2*8; 3*5+4*7, 3*6+4*8] */
    assert_product(m, n, (const double[]){19, 22, 43, 50}, 2);
}

static void identity_times_matrix_is_matrix(void **state)
{
    (void)state;
    double identity[25] = {0}, a[25];
    for (int i = 0; i < 25; ++i)
        a[i] = i * 1.5 - 7.0;
    for (int i = 0; i < 5; ++i)
        identity[i * 5 + i] = 1.0;
    assert_product(identity, a, a, 5);
    assert_product(a, identity, a, 5);
}

static void width_one_is_scalar_product(void **state)
{
    (void)state;
    assert_product((const double[]){-3}, (const double[]){2.5}, (const double[]){-7.5}, 1);
}

static void product_3x3(void **state)
{
    (void)state;
    const double m[] = {1, 0, 2,
                        -1, 3, 1,
                        2, 1, 0};
    const double n[] = {3, 1, 0,
                        2, 1, -1,
                        1, 0, 4};
    /* row 0: [1*3+0*2+2*1, 1*1+0*1+2*0, 1*0+0*(-1)+2*4] = [5, 1, 8]
     * row 1: [-3+6+1, -1+3+0, 0-3+4] = [4, 2, 1]
     * row 2: [6+2+0, 2+1+0, 0-1+0] = [8, 3, -1] */
    const double expected[] = {5, 1, 8,
                               4, 2, 1,
                               8, 3, -1};
    assert_product(m, n, expected, 3);
}

/* (2 x 3) x (3 x 4): P[i][j] = sum over k of M[i][k] N[k][j], worked by hand. */
static void product_of_a_2x3_and_a_3x4(void **state)
{
    (void)state;
    const double m[] = {1, 2, 3,
                        4, 5, 6};
    const double n[] = {1, 0, 0, 2,
                        0, 1, 0, 1,
                        0, 0, 1, -1};
    /* row 0: [1, 2, 3, 2*1 + 1*2 - 1*3] = [1, 2, 3, 1]; row 1: [4, 5, 6, 8 + 5 - 6] = [4, 5, 6, 7] */
    double p[8];
    reference_cpu(m, n, p, (struct matmul_shape){.rows = 2, .cols = 4, .inner = 3});
    assert_memory_equal(p, ((const double[]){1, 2, 3, 1, 4, 5, 6, 7}), sizeof p);
}

static void output_is_overwritten_not_accumulated(void **state)
{
    (void)state;
    const double m[] = {1, 2, 3, 4}, n[] = {5, 6, 7, 8};
    double p[4] = {100, 100, 100, 100};
    reference_cpu(m, n, p, matmul_square(2));
    assert_memory_equal(p, ((const double[]){19, 22, 43, 50}), sizeof p);
}

static void name_by_width(void **state)
{
    (void)state;
    assert_string_equal(reference_name(matmul_square(1)), "cpu_fp64");
    assert_string_equal(reference_name(matmul_square(512)), "cpu_fp64");
    assert_string_equal(reference_name(matmul_square(513)), "cublas_fp64");
    /* by multiply-adds: 4096 x 64 x 512 is 512^3, 4096 x 64 x 513 more */
    assert_string_equal(reference_name((struct matmul_shape){4096, 64, 512}), "cpu_fp64");
    assert_string_equal(reference_name((struct matmul_shape){4096, 64, 513}), "cublas_fp64");
}

static void device_bytes_by_width(void **state)
{
    (void)state;
    assert_int_equal(reference_device_bytes(matmul_square(100)), 0);
    assert_int_equal(reference_device_bytes(matmul_square(512)), 0);
    assert_int_equal(reference_device_bytes(matmul_square(1000)), 3 * 1000 * 1000 * 8);
    /* 3 * 46340^2 * 8 does not fit 32 bits */
    assert_true(reference_device_bytes(matmul_square(46340)) == 3ull * 46340 * 46340 * 8);
    /* 1000 x 2000 x 10 is 20 M multiply-adds, on the CPU; 1000 x 2000 x 100 (M 1000 x 100, N 100 x 2000, P 1000 x
     * 2000) 200 M, more than 512^3 */
    assert_int_equal(reference_device_bytes((struct matmul_shape){1000, 2000, 10}), 0);
    assert_int_equal(reference_device_bytes((struct matmul_shape){1000, 2000, 100}),
                     (1000 * 100 + 100 * 2000 + 1000 * 2000) * 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(product_2x2),
        cmocka_unit_test(product_of_a_2x3_and_a_3x4),
        cmocka_unit_test(identity_times_matrix_is_matrix),
        cmocka_unit_test(width_one_is_scalar_product),
        cmocka_unit_test(product_3x3),
        cmocka_unit_test(output_is_overwritten_not_accumulated),
        cmocka_unit_test(name_by_width),
        cmocka_unit_test(device_bytes_by_width),
    };
    return cmocka_run_group_tests_name("reference", tests, NULL, NULL);
}
