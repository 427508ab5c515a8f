/*
 * The program's NVTX ranges reach libmemscope-inject.so through NVTX's own injection, without CUDA: a program
 * built here (program_nvtx.c) pushes ranges on two threads and in two domains with NVTX_INJECTION64_PATH naming
 * the library, whose test hook (MEMSCOPE_INJECT_SELFTEST) writes the ranges it kept at exit.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../support/build_dir.h"
#include "../support/run_shell.h"

/* Runs the program under the library (or without it: library NULL); the ranges kept go to dump. */
static void run_program(const char *library, const char *dump, long *pid, long *worker)
{
    static struct outcome o;
    shell(&o, "rm -f %s && %s%s MEMSCOPE_INJECT_SELFTEST=%s %s/tests/inject/program_nvtx", dump,
          library ? "NVTX_INJECTION64_PATH=" : "", library ? library : "", dump, build_dir());
    assert_int_equal(o.exit_code, 0);
    if (sscanf(o.output, "main %ld\nworker %ld", pid, worker) != 2)
        fail_msg("the program said:\n%s", o.output);
}

static void read_file(const char *path, char *text, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s was not written: the ranges never reached the library", path);
    size_t n = fread(text, 1, len - 1, f);
    text[n] = '\0';
    fclose(f);
}

static void ranges_reach_the_library_with_their_threads_depths_and_domains(void **state)
{
    (void)state;
    char library[512], dump[64], kept[4096], expected[1024];
    long pid, worker;
    snprintf(library, sizeof library, "%s/libmemscope-inject.so", build_dir());
    snprintf(dump, sizeof dump, "/tmp/memscope-nvtx-hook-%ld.txt", (long)getpid());
    run_program(library, dump, &pid, &worker);
    read_file(dump, kept, sizeof kept);
    unlink(dump);
    snprintf(expected, sizeof expected,
             "%ld 0 open outer\n"
             "%ld 1 closed inner\n"
             "%ld 0 closed worker\n"
             "%ld 0 closed domain range\n" /* its domain's own stack: depth 0, and closed by the domain's pop */
             "%ld 1 open inner 2\n"
             "lost 0\n",
             pid, pid, worker, pid, pid);
    assert_string_equal(kept, expected);
}

/* The same program without the library leaves no file: the ranges above came through it. */
static void without_the_library_nothing_is_kept(void **state)
{
    (void)state;
    char dump[64];
    long pid, worker;
    snprintf(dump, sizeof dump, "/tmp/memscope-nvtx-none-%ld.txt", (long)getpid());
    run_program(NULL, dump, &pid, &worker);
    assert_int_not_equal(access(dump, F_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ranges_reach_the_library_with_their_threads_depths_and_domains),
        cmocka_unit_test(without_the_library_nothing_is_kept),
    };
    return cmocka_run_group_tests_name("nvtx hook", tests, NULL, NULL);
}
