/*
 * The autotuners' launches told from a program's own (harness/program/autotuning.h), on launch sequences written
 * from the autotuners' own loops: Inductor's benchmarker (torch/_inductor/runtime/benchmarking.py, benchmark_gpu:
 * one untimed run, a flush, five timed runs after a flush each, 100 flushes of memory warm-up, then the timed runs)
 * and Triton's do_bench (triton/testing.py: one untimed run, five timed runs after a flush each, untimed warm-up
 * runs, then the timed runs after a flush each); and on programs of their own that zero an int tensor.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/program/autotuning.h"

#define FLUSH "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, std::array<char*, 1ul> >"
#define MAX_LAUNCHES 4096

struct launches {
    const char *kernel[MAX_LAUNCHES];
    bool expected[MAX_LAUNCHES]; /* the autotuner's */
    size_t n;
};

static void launch(struct launches *l, const char *kernel, bool autotuner, int times)
{
    for (int i = 0; i < times; ++i) {
        assert_true(l->n < MAX_LAUNCHES);
        l->kernel[l->n] = kernel;
        l->expected[l->n++] = autotuner;
    }
}

/* flush, candidate, times over. */
static void timed_runs(struct launches *l, const char *candidate, int times)
{
    for (int i = 0; i < times; ++i) {
        launch(l, FLUSH, true, 1);
        launch(l, candidate, true, 1);
    }
}

static void inductor_candidate(struct launches *l, const char *candidate, int timed)
{
    launch(l, candidate, true, 1);
    launch(l, FLUSH, true, 1);
    timed_runs(l, candidate, 5);
    launch(l, FLUSH, true, 100);
    timed_runs(l, candidate, timed);
}

static void do_bench(struct launches *l, const char *candidate, int warmup, int timed)
{
    launch(l, candidate, true, 1);
    timed_runs(l, candidate, 5);
    launch(l, candidate, true, warmup);
    timed_runs(l, candidate, timed);
}

static void expect_marks(const struct launches *l)
{
    bool marked[MAX_LAUNCHES];
    assert_int_equal(autotuning_mark(l->kernel, l->n, marked), 0);
    for (size_t i = 0; i < l->n; ++i)
        if (marked[i] != l->expected[i])
            fail_msg("launch %zu (%s): %s, expected %s", i, l->kernel[i], marked[i] ? "the autotuner's" : "its own",
                     l->expected[i] ? "the autotuner's" : "its own");
}

static void the_flush_is_pytorchs_int_fill(void **state)
{
    (void)state;
    assert_true(autotuning_is_flush(FLUSH));
    assert_false(autotuning_is_flush("void at::native::vectorized_elementwise_kernel<4, "
                                     "at::native::FillFunctor<float>, std::array<char*, 1ul> >"));
    assert_false(autotuning_is_flush("triton_poi_fused_fill_0"));
}

/* torch.compile with a cold cache: two candidates of one kernel timed, then the program's own launches of it. */
static void inductors_candidates_are_the_autotuners_and_the_chosen_runs_the_programs(void **state)
{
    (void)state;
    static struct launches l;
    l.n = 0;
    launch(&l, "ampere_sgemm", false, 2);
    inductor_candidate(&l, "triton_poi_fused_add_0", 100);
    inductor_candidate(&l, "triton_poi_fused_add_0", 37); /* fewer where a run is long: 25 ms at most */
    launch(&l, "triton_poi_fused_add_0", false, 1);
    launch(&l, "ampere_sgemm", false, 1);
    launch(&l, "triton_poi_fused_add_0", false, 3);
    expect_marks(&l);
}

/* @triton.autotune: do_bench's untimed warm-up runs between its estimate and its timing are the autotuner's too. */
static void triton_do_bench_warm_up_runs_are_the_autotuners(void **state)
{
    (void)state;
    static struct launches l;
    l.n = 0;
    launch(&l, "my_layer_norm", false, 1);
    do_bench(&l, "matmul_kernel", 25, 100);
    do_bench(&l, "matmul_kernel", 3, 12);
    launch(&l, "matmul_kernel", false, 1);
    launch(&l, FLUSH, false, 1); /* the program's own zeroing, then its own launches */
    launch(&l, "my_layer_norm", false, 1);
    launch(&l, "matmul_kernel", false, 1);
    expect_marks(&l);
}

/* do_bench times a candidate slower than 20 ms fewer than five times after its estimate (rep / estimate, 100 ms),
 * after one warm-up run: those are the autotuner's too. */
static void a_slow_candidates_few_timed_runs_are_the_autotuners(void **state)
{
    (void)state;
    static struct launches l;
    l.n = 0;
    launch(&l, "prologue", false, 1);
    do_bench(&l, "huge_gemm", 1, 2);
    launch(&l, "huge_gemm", false, 1);
    launch(&l, "epilogue", false, 1);
    expect_marks(&l);
}

/* A program that calls an autotuned kernel, then calls it with a new key (another size), which @triton.autotune
 * times anew: its own call between the two timings is its own. */
static void a_call_between_two_timings_of_one_kernel_is_the_programs(void **state)
{
    (void)state;
    static struct launches l;
    l.n = 0;
    do_bench(&l, "matmul_kernel", 25, 100);
    launch(&l, "matmul_kernel", false, 1);
    do_bench(&l, "matmul_kernel", 25, 100);
    launch(&l, "matmul_kernel", false, 1);
    expect_marks(&l);
}

/* A program zeroing an int tensor before a kernel four times in a row is not timing anything. */
static void four_fills_and_launches_in_a_row_are_the_programs(void **state)
{
    (void)state;
    static struct launches l;
    l.n = 0;
    for (int i = 0; i < 4; ++i) {
        launch(&l, FLUSH, false, 1);
        launch(&l, "histogram", false, 1);
    }
    launch(&l, "scan", false, 1);
    expect_marks(&l);
}

/* A fill before each of a step's launches, with other launches between them, is the program's however long. */
static void fills_in_steps_of_several_kernels_are_the_programs(void **state)
{
    (void)state;
    static struct launches l;
    l.n = 0;
    for (int i = 0; i < 50; ++i) {
        launch(&l, FLUSH, false, 1);
        launch(&l, "embedding_backward", false, 1);
        launch(&l, "adam", false, 1);
    }
    expect_marks(&l);
}

/* Pairs of the flush with different kernels are no candidate's timing. */
static void a_flush_before_each_of_different_kernels_is_the_programs(void **state)
{
    (void)state;
    static struct launches l;
    static const char *const kernels[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    l.n = 0;
    for (int i = 0; i < 8; ++i) {
        launch(&l, FLUSH, false, 1);
        launch(&l, kernels[i], false, 1);
    }
    expect_marks(&l);
}

static void no_launches_mark_nothing(void **state)
{
    (void)state;
    static struct launches l;
    l.n = 0;
    expect_marks(&l);
    launch(&l, FLUSH, false, 1);
    expect_marks(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_flush_is_pytorchs_int_fill),
        cmocka_unit_test(inductors_candidates_are_the_autotuners_and_the_chosen_runs_the_programs),
        cmocka_unit_test(triton_do_bench_warm_up_runs_are_the_autotuners),
        cmocka_unit_test(a_slow_candidates_few_timed_runs_are_the_autotuners),
        cmocka_unit_test(a_call_between_two_timings_of_one_kernel_is_the_programs),
        cmocka_unit_test(four_fills_and_launches_in_a_row_are_the_programs),
        cmocka_unit_test(fills_in_steps_of_several_kernels_are_the_programs),
        cmocka_unit_test(a_flush_before_each_of_different_kernels_is_the_programs),
        cmocka_unit_test(no_launches_mark_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
