/*
 * What a multi-process program's part needs without a GPU (issue 41): the rank read from each launcher's variable
 * (torchrun's RANK, Open MPI's, MPICH's, Slurm's, LOCAL_RANK last), NCCL's kernels and --no-replay's recognised as
 * never to be replayed, and the selection's count per kernel (the first N launches of each kernel that matches).
 */
#define _XOPEN_SOURCE 700
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "../../harness/inject/collectives.h"
#include "../../harness/inject/launches.h"
#include "../../harness/inject/rank.h"

#define UNSET_RANK(name) unsetenv(name);

static void expect_rank(const char *variable, const char *value, long rank)
{
    struct process_rank r;
    RANK_VARIABLES(UNSET_RANK)
    setenv(variable, value, 1);
    process_rank_read(&r);
    assert_int_equal(r.rank, rank);
    assert_string_equal(r.variable, variable);
}

static void each_launchers_variable_names_the_rank(void **state)
{
    (void)state;
    expect_rank("RANK", "1", 1);
    expect_rank("OMPI_COMM_WORLD_RANK", "3", 3);
    expect_rank("PMI_RANK", "5", 5);
    expect_rank("SLURM_PROCID", "7", 7);
    expect_rank("LOCAL_RANK", "0", 0);
}

static void a_global_rank_wins_over_the_local_one_and_no_variable_is_no_rank(void **state)
{
    (void)state;
    struct process_rank r;
    RANK_VARIABLES(UNSET_RANK)
    process_rank_read(&r);
    assert_int_equal(r.rank, -1);
    assert_null(r.variable);
    setenv("LOCAL_RANK", "1", 1);
    setenv("SLURM_PROCID", "9", 1);
    process_rank_read(&r);
    assert_int_equal(r.rank, 9);
    setenv("RANK", "x", 1); /* not a number: passed over */
    process_rank_read(&r);
    assert_string_equal(r.variable, "SLURM_PROCID");
    RANK_VARIABLES(UNSET_RANK)
}

static void nccls_kernels_and_the_users_are_never_replayed(void **state)
{
    (void)state;
    regex_t user;
    assert_int_equal(regcomp(&user, "cross_device_reduce", REG_EXTENDED | REG_NOSUB), 0);
    assert_string_equal(collective_reason("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgs4K)", NULL),
                        "NCCL kernel");
    assert_string_equal(collective_reason("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, "
                                          "ncclWork*)", NULL),
                        "NCCL kernel");
    assert_string_equal(collective_reason("void ncclDevKernel_Generic<0>(ncclDevKernelArgs4K)", NULL), "NCCL kernel");
    assert_null(collective_reason("void at::native::reduce_kernel<512, 1>(int)", NULL));
    assert_null(collective_reason("my_ncclKernel_lookalike()", NULL)); /* NCCL's names begin so */
    assert_string_equal(collective_reason("void vllm::cross_device_reduce_1stage<float, 2>(float*)", &user),
                        "--no-replay");
    assert_null(collective_reason("void vllm::rms_norm_kernel<float>(float*)", &user));
    regfree(&user);
}

/* Kernels a b a c a b: with at most 1 of each, a, b and c once each (launches 0, 1, 3); with 2 of each and at most 4
 * in all, launches 0, 1, 2, 3; skipping the first match, then 1 of each: 1, 2, 3. */
static void the_count_per_kernel_takes_the_first_n_of_each(void **state)
{
    (void)state;
    static const size_t kernels[] = {0, 1, 0, 2, 0, 1};
    static const struct {
        long skip, count, per_kernel;
        int taken[6];
    } cases[] = {
        {0, -1, 1, {1, 1, 0, 1, 0, 0}},
        {0, 4, 2, {1, 1, 1, 1, 0, 0}},
        {1, -1, 1, {0, 1, 1, 1, 0, 0}},
        {0, -1, 0, {1, 1, 1, 1, 1, 1}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        struct selection s = {NULL, NULL, cases[c].skip, cases[c].count, cases[c].per_kernel};
        struct selection_count count = {0};
        for (size_t i = 0; i < 6; ++i)
            assert_int_equal(selection_takes(&s, &count, kernels[i], 1, ""), cases[c].taken[i]);
        selection_count_free(&count);
    }
}

static void kernels_are_numbered_as_first_launched(void **state)
{
    (void)state;
    struct kernel_numbers k = {0};
    size_t a, b, again;
    assert_int_equal(kernel_number(&k, "a()", &a), 0);
    assert_int_equal(kernel_number(&k, "b()", &b), 0);
    assert_int_equal(kernel_number(&k, "a()", &again), 0);
    assert_int_equal(a, 0);
    assert_int_equal(b, 1);
    assert_int_equal(again, 0);
    kernel_numbers_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_launchers_variable_names_the_rank),
        cmocka_unit_test(a_global_rank_wins_over_the_local_one_and_no_variable_is_no_rank),
        cmocka_unit_test(nccls_kernels_and_the_users_are_never_replayed),
        cmocka_unit_test(the_count_per_kernel_takes_the_first_n_of_each),
        cmocka_unit_test(kernels_are_numbered_as_first_launched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
