/*
 * The injection library's bookkeeping on records made up here, as CUPTI and the NVTX hook would hand them over
 * (no GPU): each GPU record placed on its call's thread and in the NVTX ranges open there at the call, launches
 * numbered in call order, overall and per kernel and path, and the selection of --kernel, --nvtx-include,
 * --launch-skip and --launch-count, which neither takes nor counts a kernel a CUDA graph ran.
 *
 * Thread 100 opens "train" [50, 1000), "step" [250, 600) and "fwd" [280, 320) inside it, and "pre" [60, 100),
 * which ends as the first call begins; thread 200 opens "worker" at 340, never closed. The calls:
 *
 *   correlation  thread  time  what
 *   1            100     100   kernelA     -> train
 *   2            100     300   kernelB     -> train/step/fwd (its driver call at 310 is the same launch)
 *   3            100     500   a memcpy    -> train/step
 *   4            200     350   kernelA     -> worker
 *   5            100     700   kernelA     -> train
 *   9            -       -     kernel_c, whose call CUPTI dropped -> "" on thread 0
 */
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../harness/inject/launches.h"

#define KERNEL_A "_Z7kernelAPf" /* kernelA(float*) */
#define KERNEL_B "_Z7kernelBv"  /* kernelB() */

static struct prof_gpu_op kernel(const char *name, uint32_t correlation, uint64_t start)
{
    struct prof_gpu_op op = {.kind = PROF_OP_KERNEL, .start_ns = start, .end_ns = start + 40,
                             .correlation = correlation};
    snprintf(op.name, sizeof op.name, "%s", name);
    return op;
}

/* In the order CUPTI hands them back: as they complete, not as they were asked for. */
static void make_ops(struct prof_gpu_op ops[6])
{
    ops[0] = kernel(KERNEL_A, 5, 720);
    ops[1] = kernel(KERNEL_A, 1, 120);
    ops[2] = (struct prof_gpu_op){.kind = PROF_OP_MEMCPY, .start_ns = 520, .end_ns = 530, .correlation = 3};
    ops[3] = kernel(KERNEL_A, 4, 400);
    ops[4] = kernel(KERNEL_B, 2, 330);
    ops[5] = kernel("kernel_c", 9, 900);
}

static const struct prof_api_call calls[] = {
    {310, 315, 2, 100, 7}, /* the driver's launch inside runtime call 2 */
    {100, 110, 1, 100, 1}, {300, 320, 2, 100, 1}, {500, 510, 3, 100, 2}, {350, 360, 4, 200, 1},
    {700, 710, 5, 100, 1},
};

static const struct kept_range ranges[] = {
    {"train", 100, 0, 50, 1000}, {"pre", 100, 1, 60, 100},   {"step", 100, 1, 250, 600},
    {"fwd", 100, 2, 280, 320},   {"worker", 200, 0, 340, 0},
};

struct fixture {
    struct prof_gpu_op ops[6];
    struct placement placement;
    struct launches launches;
    regex_t pattern;
};

static struct fixture f;

static void place(void)
{
    struct error e = {0};
    make_ops(f.ops);
    assert_int_equal(place_ops(f.ops, 6, calls, sizeof calls / sizeof calls[0], ranges,
                               sizeof ranges / sizeof ranges[0], &f.placement, &e),
                     0);
}

static const char *path_of(size_t op)
{
    return f.placement.paths[f.placement.path[op]];
}

static void build(const char *kernel_pattern, const char *nvtx_include, long skip, long count)
{
    struct error e = {0};
    struct selection s = {NULL, nvtx_include, skip, count, 0};
    place();
    if (kernel_pattern) {
        assert_int_equal(regcomp(&f.pattern, kernel_pattern, REG_EXTENDED | REG_NOSUB), 0);
        s.kernel = &f.pattern;
    }
    assert_int_equal(launches_build(f.ops, 6, &f.placement, &s, &f.launches, &e), 0);
    if (kernel_pattern)
        regfree(&f.pattern);
}

static int teardown(void **state)
{
    (void)state;
    launches_free(&f.launches);
    placement_free(&f.placement);
    return 0;
}

static void each_record_lies_in_the_ranges_open_on_its_calls_thread(void **state)
{
    (void)state;
    place();
    assert_string_equal(path_of(1), "train"); /* "pre" ended as the call began */
    assert_string_equal(path_of(4), "train/step/fwd");
    assert_string_equal(path_of(2), "train/step");
    assert_string_equal(path_of(3), "worker"); /* open at exit: open to the end */
    assert_string_equal(path_of(0), "train");
    assert_string_equal(path_of(5), "");
    assert_int_equal(f.placement.thread[3], 200);
    assert_int_equal(f.placement.thread[0], 100);
    assert_int_equal(f.placement.thread[5], 0);
    assert_int_equal(f.placement.unplaced, 1);
}

static void each_distinct_path_is_kept_once(void **state)
{
    (void)state;
    place();
    assert_int_equal(f.placement.n_paths, 5); /* "", train, train/step/fwd, train/step, worker */
    assert_int_equal(f.placement.path[0], f.placement.path[1]);
    assert_string_equal(f.placement.paths[0], "");
}

static void launches_are_numbered_in_call_order_and_per_kernel_and_path(void **state)
{
    (void)state;
    static const size_t op_in_order[] = {1, 4, 3, 0, 5};
    static const long per_kernel_and_path[] = {0, 0, 0, 1, 0};
    static const char *const names[] = {"kernelA(float*)", "kernelB()", "kernelA(float*)", "kernelA(float*)",
                                        "kernel_c"};
    build(NULL, NULL, 0, -1);
    assert_int_equal(f.launches.n, 5); /* the memcpy is no launch */
    assert_int_equal(f.launches.n_kernels, 3);
    for (size_t i = 0; i < 5; ++i) {
        const struct launch *l = &f.launches.rows[i];
        assert_int_equal(l->ordinal, (long)i);
        assert_int_equal(l->op, op_in_order[i]);
        assert_int_equal(l->kernel_ordinal, per_kernel_and_path[i]);
        assert_string_equal(f.launches.kernels[l->kernel], names[i]);
        assert_true(l->selected);
    }
    assert_int_equal(f.launches.n_selected, 5);
}

static void expect_selected(const long *ordinals, size_t n)
{
    size_t found = 0;
    for (size_t i = 0; i < f.launches.n; ++i)
        if (f.launches.rows[i].selected) {
            assert_true(found < n);
            assert_int_equal(f.launches.rows[i].ordinal, ordinals[found++]);
        }
    assert_int_equal(found, n);
    assert_int_equal(f.launches.n_selected, n);
}

static void the_kernel_pattern_is_matched_against_the_demangled_name_then_skip_and_count_apply(void **state)
{
    (void)state;
    static const long second_of_a[] = {2};
    build("kernelA\\(float", NULL, 1, 1);
    expect_selected(second_of_a, 1);
}

static void the_nvtx_include_selects_the_launches_whose_path_contains_it(void **state)
{
    (void)state;
    static const long in_train[] = {0, 1, 3};
    build(NULL, "train", 0, -1);
    expect_selected(in_train, 3);
}

static void a_skip_past_every_match_selects_nothing(void **state)
{
    (void)state;
    build(NULL, "step", 1, -1);
    expect_selected(NULL, 0);
}

/* kernelA's launch on thread 200 (ordinal 2) ran in a graph: the second kernelA the rule counts is ordinal 3. */
static void a_kernel_a_graph_ran_is_neither_taken_nor_counted(void **state)
{
    (void)state;
    static const long second_own_a[] = {3};
    struct error e = {0};
    regex_t pattern;
    assert_int_equal(regcomp(&pattern, "kernelA", REG_EXTENDED | REG_NOSUB), 0);
    struct selection s = {&pattern, NULL, 1, -1, 0};
    place();
    f.ops[3].graph = 3;
    assert_int_equal(launches_build(f.ops, 6, &f.placement, &s, &f.launches, &e), 0);
    regfree(&pattern);
    expect_selected(second_own_a, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(each_record_lies_in_the_ranges_open_on_its_calls_thread, teardown),
        cmocka_unit_test_teardown(each_distinct_path_is_kept_once, teardown),
        cmocka_unit_test_teardown(launches_are_numbered_in_call_order_and_per_kernel_and_path, teardown),
        cmocka_unit_test_teardown(the_kernel_pattern_is_matched_against_the_demangled_name_then_skip_and_count_apply,
                                  teardown),
        cmocka_unit_test_teardown(the_nvtx_include_selects_the_launches_whose_path_contains_it, teardown),
        cmocka_unit_test_teardown(a_skip_past_every_match_selects_nothing, teardown),
        cmocka_unit_test_teardown(a_kernel_a_graph_ran_is_neither_taken_nor_counted, teardown),
    };
    return cmocka_run_group_tests_name("launches", tests, NULL, NULL);
}
