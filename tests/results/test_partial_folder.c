/* The results folder: planned without side effects, filled under ".partial", renamed when complete. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../support/remove_tree.h"
#include "../../harness/results/partial_folder.h"

struct fixture {
    char home[4096];
    char scratch[64];
};

/* Each test runs in a fresh empty folder, so relative paths are its own. */
static int enter_scratch(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    if (!f || !getcwd(f->home, sizeof f->home))
        return -1;
    snprintf(f->scratch, sizeof f->scratch, "/tmp/memscope-test-results-XXXXXX");
    if (!mkdtemp(f->scratch) || chdir(f->scratch) != 0)
        return -1;
    *state = f;
    return 0;
}

static int leave_scratch(void **state)
{
    struct fixture *f = *state;
    int rc = chdir(f->home);
    if (remove_tree(f->scratch) != 0)
        rc = -1;
    free(f);
    return rc;
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static bool is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void make_file(const char *path)
{
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    assert_int_equal(fclose(file), 0);
}

static void plan_ok(struct results_dir *r, const char *requested)
{
    struct error e = {0};
    if (results_dir_plan(r, requested, &e) != 0)
        fail_msg("results_dir_plan(%s): %s", requested ? requested : "NULL", e.message);
}

static void expect_plan_error(const char *requested, const char *expected_in_message)
{
    struct results_dir r;
    struct error e = {0};
    assert_int_equal(results_dir_plan(&r, requested, &e), EXIT_OUTPUT);
    assert_int_equal(e.code, EXIT_OUTPUT);
    if (!strstr(e.message, expected_in_message))
        fail_msg("message \"%s\" lacks \"%s\"", e.message, expected_in_message);
}

static void plan_explicit_path_creates_nothing(void **state)
{
    (void)state;
    struct results_dir r;
    plan_ok(&r, "out");
    assert_string_equal(r.final_path, "out");
    assert_string_equal(r.partial_path, "out.partial");
    assert_false(r.in_default_root);
    assert_false(exists("out"));
    assert_false(exists("out.partial"));
}

static void plan_strips_trailing_slashes(void **state)
{
    (void)state;
    struct results_dir r;
    plan_ok(&r, "out//");
    assert_string_equal(r.final_path, "out");
    assert_string_equal(r.partial_path, "out.partial");
}

static void plan_in_existing_subfolder(void **state)
{
    (void)state;
    assert_int_equal(mkdir("runs", 0777), 0);
    struct results_dir r;
    plan_ok(&r, "runs/today");
    assert_string_equal(r.final_path, "runs/today");
    assert_string_equal(r.partial_path, "runs/today.partial");
}

static void plan_refuses_existing_final_path(void **state)
{
    (void)state;
    assert_int_equal(mkdir("out", 0777), 0);
    expect_plan_error("out", "out already exists");
}

static void plan_refuses_existing_final_file(void **state)
{
    (void)state;
    make_file("out");
    expect_plan_error("out", "out already exists");
}

static void plan_refuses_leftover_partial(void **state)
{
    (void)state;
    assert_int_equal(mkdir("out.partial", 0777), 0);
    expect_plan_error("out", "interrupted");
}

static void plan_refuses_parent_that_is_a_file(void **state)
{
    (void)state;
    make_file("plain");
    expect_plan_error("plain/out", "not a folder");
}

static void plan_refuses_missing_parent(void **state)
{
    (void)state;
    expect_plan_error("missing/out", "folder missing");
}

/* "" would make ".partial" here, and a file joined to it would land in the root: refused as bad usage, and neither
 * the folder's output nor a file's is begun. */
static void an_empty_output_path_is_refused(void **state)
{
    (void)state;
    struct results_dir r;
    struct partial_file f;
    struct error e = {0};
    assert_int_equal(results_dir_plan(&r, "", &e), EXIT_USAGE);
    assert_string_equal(e.message, "--out: empty path");
    e = (struct error){0};
    assert_int_equal(partial_file_open(&f, "", &e), EXIT_USAGE);
    assert_string_equal(e.message, "--out: empty path");
    assert_false(exists(".partial"));
}

static void create_then_commit_renames_partial(void **state)
{
    (void)state;
    struct results_dir r;
    struct error e = {0};
    plan_ok(&r, "out");
    assert_int_equal(results_dir_create(&r, &e), 0);
    assert_true(is_folder("out.partial"));
    assert_false(exists("out"));
    make_file("out.partial/summary.csv");
    assert_int_equal(results_dir_commit(&r, &e), 0);
    assert_int_equal(e.code, EXIT_OK);
    assert_false(exists("out.partial"));
    assert_true(is_folder("out"));
    assert_true(exists("out/summary.csv"));
}

static void plan_refuses_path_committed_before(void **state)
{
    (void)state;
    struct results_dir r;
    struct error e = {0};
    plan_ok(&r, "out");
    assert_int_equal(results_dir_create(&r, &e), 0);
    assert_int_equal(results_dir_commit(&r, &e), 0);
    expect_plan_error("out", "already exists");
}

static void default_path_lands_under_results_root(void **state)
{
    (void)state;
    struct results_dir r;
    struct error e = {0};
    plan_ok(&r, NULL);
    assert_true(r.in_default_root);
    assert_memory_equal(r.final_path, DEFAULT_RESULTS_ROOT "/", strlen(DEFAULT_RESULTS_ROOT "/"));
    assert_true(strlen(r.final_path) > strlen(DEFAULT_RESULTS_ROOT "/"));
    assert_false(exists(DEFAULT_RESULTS_ROOT));
    assert_int_equal(results_dir_create(&r, &e), 0);
    assert_true(is_folder(DEFAULT_RESULTS_ROOT));
    assert_true(is_folder(r.partial_path));
    assert_int_equal(results_dir_commit(&r, &e), 0);
    assert_true(is_folder(r.final_path));
}

static void default_path_avoids_existing_folder(void **state)
{
    (void)state;
    struct results_dir first, second;
    struct error e = {0};
    plan_ok(&first, NULL);
    assert_int_equal(results_dir_create(&first, &e), 0);
    assert_int_equal(results_dir_commit(&first, &e), 0);
    plan_ok(&second, NULL);
    assert_string_not_equal(second.final_path, first.final_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(plan_explicit_path_creates_nothing, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(plan_strips_trailing_slashes, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(plan_in_existing_subfolder, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(plan_refuses_existing_final_path, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(plan_refuses_existing_final_file, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(plan_refuses_leftover_partial, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(plan_refuses_parent_that_is_a_file, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(plan_refuses_missing_parent, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(an_empty_output_path_is_refused, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(create_then_commit_renames_partial, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(plan_refuses_path_committed_before, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(default_path_lands_under_results_root, enter_scratch, leave_scratch),
        cmocka_unit_test_setup_teardown(default_path_avoids_existing_folder, enter_scratch, leave_scratch),
    };
    return cmocka_run_group_tests_name("results_dir", tests, NULL, NULL);
}
