/*
 * memscope-compare on two program profiles (memscope-profile): jobs pair by their whole name (NVTX path, kernel and
 * ordinal), so the fixture's two launches of one cutlass kernel at step 1/matmul, whose names differ only in their
 * last character, are told apart; the "after" profile's second launch, 20 % slower, is SLOWER (exit 1), and its
 * softmax's changed global sector count is reported. A profile against a run of the suite is refused (exit 2);
 * profiles of different commands compare, with a note on stderr.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../support/run_shell.h"

#define BEFORE "tests/fixtures/profile-small"
#define AFTER "tests/fixtures/profile-small-after"
#define SLOWER_JOB "step 1/matmul/void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>" \
                   "(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params) #1"

static char workdir[] = "/tmp/memscope-compare-profiles-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(workdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

static void compare(struct outcome *o, const char *base, const char *head)
{
    const char *tool = getenv("MEMSCOPE_COMPARE");
    shell(o, "%s %s %s", tool ? tool : "build/memscope-compare", base, head);
}

/* The line of the printed table that starts with the job's name. */
static const char *line_of(const char *output, const char *job)
{
    for (const char *at = strstr(output, job); at; at = strstr(at + 1, job))
        if (at == output || at[-1] == '\n')
            return at;
    return NULL;
}

static void planted_slower_launch_is_slower_and_exits_one(void **state)
{
    (void)state;
    static struct outcome o;
    compare(&o, BEFORE, AFTER);
    assert_int_equal(o.exit_code, 1);
    const char *slower = line_of(o.output, SLOWER_JOB), *first = line_of(o.output, "step 1/matmul/void cutlass");
    assert_non_null(slower);
    assert_true(strstr(slower, "SLOWER") < strchr(slower, '\n')); /* on its own line */
    assert_non_null(strstr(slower, "+20.0"));
    assert_non_null(first); /* the #0 launch: its own pair, unchanged */
    assert_true(strstr(first, "SAME") && strstr(first, "SAME") < strchr(first, '\n'));
    assert_non_null(strstr(o.output, "1 SLOWER"));
}

static void changed_count_of_a_profiled_job_is_reported(void **state)
{
    (void)state;
    static struct outcome o;
    compare(&o, BEFORE, AFTER);
    const char *changes = strstr(o.output, "metric changes");
    assert_non_null(changes);
    const char *softmax = strstr(changes, "step 1/softmax/");
    assert_non_null(softmax);
    assert_non_null(strstr(softmax, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    assert_non_null(strstr(softmax, "regression"));
}

static void profile_against_a_suite_run_exits_two(void **state)
{
    (void)state;
    static struct outcome o;
    compare(&o, BEFORE, "tests/fixtures/report-run");
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "different kinds of results folder"));
    assert_non_null(strstr(o.output, "a program's profile"));
    compare(&o, "tests/fixtures/report-run", BEFORE);
    assert_int_equal(o.exit_code, 2);
    assert_non_null(strstr(o.output, "different kinds of results folder"));
}

static void different_commands_compare_with_a_note(void **state)
{
    (void)state;
    static struct outcome o;
    shell(&o, "cp -r %s %s/other && sed -i 's/^command_line,.*/command_line,python3 train.py --steps 2/' %s/other/environment.csv",
          BEFORE, workdir, workdir);
    assert_int_equal(o.exit_code, 0);
    char other[256];
    snprintf(other, sizeof other, "%s/other", workdir);
    compare(&o, BEFORE, other);
    assert_int_equal(o.exit_code, 0);
    assert_non_null(strstr(o.output, "note: profiles of different commands: 'python3 train.py --steps 1'"));
    assert_non_null(strstr(o.output, "'python3 train.py --steps 2'"));
    compare(&o, BEFORE, BEFORE);
    assert_int_equal(o.exit_code, 0);
    assert_null(strstr(o.output, "different commands"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(planted_slower_launch_is_slower_and_exits_one),
        cmocka_unit_test(changed_count_of_a_profiled_job_is_reported),
        cmocka_unit_test(profile_against_a_suite_run_exits_two),
        cmocka_unit_test(different_commands_compare_with_a_note),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
