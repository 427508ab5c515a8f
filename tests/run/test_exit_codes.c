/*
 * The memscope binary as a user meets it: documented exit codes, one clear
 * message, and no results folder left behind by a run that could not start.
 * The binary is found through MEMSCOPE_BIN (set by make test).
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/common/error.h"
#include "../support/gpu_present.h"
#include "../support/remove_tree.h"

#define MAX_ARGS 16

struct outcome {
    int exit_code;
    char output[16384]; /* stdout and stderr together */
};

static char workdir[] = "/tmp/memscope-exit-XXXXXX";

static const char *binary(void)
{
    const char *path = getenv("MEMSCOPE_BIN");
    return path ? path : "build/memscope";
}

static void read_all(int fd, char *buf, size_t len)
{
    size_t used = 0;
    ssize_t got;
    while (used + 1 < len && (got = read(fd, buf + used, len - 1 - used)) > 0)
        used += (size_t)got;
    buf[used] = '\0';
}

/* Runs the binary with args (NULL-terminated); hide_gpus empties CUDA_VISIBLE_DEVICES. */
static void run(const char *const args[], int hide_gpus, struct outcome *o)
{
    char *argv[MAX_ARGS + 2] = {(char *)binary()};
    for (int i = 0; args[i] && i < MAX_ARGS; ++i)
        argv[i + 1] = (char *)args[i];
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        if (hide_gpus)
            setenv("CUDA_VISIBLE_DEVICES", "", 1);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    read_all(fds[0], o->output, sizeof o->output);
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    o->exit_code = WEXITSTATUS(status);
}

static void expect(const char *const args[], int hide_gpus, int code, const char *text)
{
    struct outcome o;
    run(args, hide_gpus, &o);
    if (o.exit_code != code || !strstr(o.output, text))
        print_error("expected exit %d and '%s'; got exit %d:\n%s\n", code, text, o.exit_code, o.output);
    assert_int_equal(o.exit_code, code);
    assert_non_null(strstr(o.output, text));
}

static int exists(const char *name)
{
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", workdir, name);
    return stat(path, &st) == 0;
}

static const char *out_path(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", workdir, name);
    return path;
}

static void help_exits_zero(void **state)
{
    (void)state;
    expect((const char *[]){"--help", NULL}, 0, EXIT_OK, "usage: memscope");
}

static void list_works_without_gpu(void **state)
{
    (void)state;
    expect((const char *[]){"--list", NULL}, 1, EXIT_OK, "naive_uncoalesced");
}

static void unknown_variant_lists_valid_ones(void **state)
{
    (void)state;
    expect((const char *[]){"-v", "nope", NULL}, 0, EXIT_USAGE, "valid variants: naive, naive_uncoalesced");
}

static void bad_sizes_are_usage_errors(void **state)
{
    (void)state;
    expect((const char *[]){"-s", "0", NULL}, 0, EXIT_USAGE, "not a valid width");
    expect((const char *[]){"-s", "-5", NULL}, 0, EXIT_USAGE, "not a valid width");
    expect((const char *[]){"-s", "12a", NULL}, 0, EXIT_USAGE, "not a whole number");
    expect((const char *[]){"-s", "12x", NULL}, 0, EXIT_USAGE, "'12x' is not a size");
    expect((const char *[]){"-s", "65536x1x32768", NULL}, 0, EXIT_USAGE, "more than a 32-bit index reaches");
    expect((const char *[]){"-s", "99999", NULL}, 0, EXIT_USAGE, "32-bit index");
}

/* Caught by the command line, before any GPU check: exit 2 where no GPU is visible. */
static void conflicting_or_empty_options_exit_two_before_the_gpu(void **state)
{
    (void)state;
    expect((const char *[]){"--no-metrics", "--metric-groups", "dram", NULL}, 1, EXIT_USAGE, "--no-metrics cannot go");
    expect((const char *[]){"--validate", "-s", "1024", NULL}, 1, EXIT_USAGE, "takes no --variants, --sizes");
    expect((const char *[]){"-s", "1024,", NULL}, 1, EXIT_USAGE, "has an empty item");
    expect((const char *[]){"-v", "naive,,tiled_32", NULL}, 1, EXIT_USAGE, "has an empty item");
    expect((const char *[]){"--metric-groups", "source", NULL}, 1, EXIT_USAGE, "source needs another metric group");
}

static void unknown_option_is_usage_error(void **state)
{
    (void)state;
    expect((const char *[]){"--frobnicate", NULL}, 0, EXIT_USAGE, "unknown option");
}

static void unwritable_output_is_refused_before_anything_runs(void **state)
{
    (void)state;
    char file_as_parent[300];
    snprintf(file_as_parent, sizeof file_as_parent, "%s/plain-file", workdir);
    FILE *f = fopen(file_as_parent, "w");
    assert_non_null(f);
    fclose(f);
    strcat(file_as_parent, "/out");
    expect((const char *[]){"-o", file_as_parent, NULL}, 0, EXIT_OUTPUT, "is not a folder");
}

static void existing_output_is_refused(void **state)
{
    (void)state;
    assert_int_equal(mkdir(out_path("taken"), 0777), 0);
    expect((const char *[]){"-o", out_path("taken"), NULL}, 0, EXIT_OUTPUT, "already exists");
}

static void no_gpu_exits_three_and_writes_nothing(void **state)
{
    (void)state;
    expect((const char *[]){"-v", "naive", "-s", "33", "-o", out_path("no-gpu"), NULL}, 1, EXIT_NO_GPU,
           "no usable CUDA GPU");
    assert_false(exists("no-gpu"));
    assert_false(exists("no-gpu.partial"));
}

static void device_index_out_of_range_exits_three(void **state)
{
    (void)state;
    if (!gpu_present())
        skip();
    expect((const char *[]){"-d", "1000", "-o", out_path("no-device"), NULL}, 0, EXIT_NO_GPU, "numbered from 0");
    assert_false(exists("no-device.partial"));
}

static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int lines = 0, c;
    if (!f)
        return -1;
    while ((c = fgetc(f)) != EOF)
        lines += c == '\n';
    fclose(f);
    return lines;
}

static void a_run_writes_a_complete_results_folder(void **state)
{
    (void)state;
    if (!gpu_present())
        skip();
    expect((const char *[]){"-v", "naive,tiled_16", "-s", "33,64", "--min-samples", "3", "--max-samples", "3",
                            "-o", out_path("run"), NULL},
           0, EXIT_OK, "results: ");
    assert_false(exists("run.partial"));
    char path[300];
    snprintf(path, sizeof path, "%s/summary.csv", out_path("run"));
    assert_int_equal(count_lines(path), 1 + 4);
    snprintf(path, sizeof path, "%s/samples.csv", out_path("run"));
    assert_int_equal(count_lines(path), 1 + 4 * 3);
    snprintf(path, sizeof path, "%s/environment.csv", out_path("run"));
    assert_true(count_lines(path) > 20);
}

static int make_workdir(void **state)
{
    (void)state;
    return mkdtemp(workdir) ? 0 : -1;
}

static int remove_workdir(void **state)
{
    (void)state;
    return remove_tree(workdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_exits_zero),
        cmocka_unit_test(list_works_without_gpu),
        cmocka_unit_test(unknown_variant_lists_valid_ones),
        cmocka_unit_test(bad_sizes_are_usage_errors),
        cmocka_unit_test(unknown_option_is_usage_error),
        cmocka_unit_test(unwritable_output_is_refused_before_anything_runs),
        cmocka_unit_test(existing_output_is_refused),
        cmocka_unit_test(conflicting_or_empty_options_exit_two_before_the_gpu),
        cmocka_unit_test(no_gpu_exits_three_and_writes_nothing),
        cmocka_unit_test(device_index_out_of_range_exits_three),
        cmocka_unit_test(a_run_writes_a_complete_results_folder),
    };
    return cmocka_run_group_tests_name("exit_codes", tests, make_workdir, remove_workdir);
}
