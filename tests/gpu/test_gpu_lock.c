/*
 * Two runs on one GPU take turns through its lock (harness/gpu/gpu_lock.h):
 * a second run refuses at once with --wait-gpu 0, waits and then refuses,
 * naming the holder, or takes its turn once the holder exits. The holder is
 * a child process, as the other run would be; no GPU is needed.
 */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../harness/common/host_clock.h"
#include "../../harness/gpu/gpu_lock.h"
#include "../support/ready_child.h"
#include "../support/remove_tree.h"

static char folder[] = "/tmp/memscope-lock-XXXXXX";
static const char *key = "GPU-test";

/* The holder: takes the lock, says so, and holds it until killed. */
static void hold_the_lock(int ready_fd, const void *arg)
{
    struct error e = {0};
    double waited;
    (void)arg;
    char byte = gpu_lock_take(folder, key, "memscope -v naive", 0, stderr, &waited, &e) == 0 ? 'y' : 'n';
    if (write(ready_fd, &byte, 1) != 1)
        _exit(1);
    pause();
    _exit(0);
}

static pid_t start_holder(void)
{
    char said;
    pid_t pid = start_ready_child(hold_the_lock, NULL, &said);
    assert_int_equal(said, 'y');
    return pid;
}

static void a_held_gpu_is_refused_at_once_with_no_wait(void **state)
{
    (void)state;
    pid_t holder = start_holder();
    struct error e = {0};
    double waited;
    char who[64];
    assert_int_equal(gpu_lock_take(folder, key, "second", 0, stderr, &waited, &e), EXIT_BUSY);
    snprintf(who, sizeof who, "pid %ld since ", (long)holder);
    assert_non_null(strstr(e.message, who));
    assert_non_null(strstr(e.message, "memscope -v naive"));
    assert_non_null(strstr(e.message, "--wait-gpu 0 refuses at once"));
    stop_child(holder);
}

static void a_held_gpu_is_waited_for_then_refused(void **state)
{
    (void)state;
    pid_t holder = start_holder();
    struct error e = {0};
    double waited, start = host_seconds();
    char *said = NULL;
    size_t said_len = 0;
    FILE *log = open_memstream(&said, &said_len);
    assert_int_equal(gpu_lock_take(folder, key, "second", 0.6, log, &waited, &e), EXIT_BUSY);
    fclose(log);
    assert_true(host_seconds() - start >= 0.6);
    assert_non_null(strstr(said, "waiting up to 1 s for it (--wait-gpu SECONDS)"));
    assert_non_null(strstr(e.message, "still in use by another memscope run"));
    assert_non_null(strstr(e.message, "memscope -v naive"));
    free(said);
    stop_child(holder);
}

static void the_gpu_is_taken_once_its_holder_exits(void **state)
{
    (void)state;
    pid_t holder = start_holder();
    stop_child(holder);
    struct error e = {0};
    double waited;
    assert_int_equal(gpu_lock_take(folder, key, "second", 5, stderr, &waited, &e), 0);
    assert_true(waited < 1);
    gpu_lock_release();
}

static void a_lock_folder_that_cannot_be_written_is_an_output_error(void **state)
{
    (void)state;
    struct error e = {0};
    double waited;
    assert_int_equal(gpu_lock_take("/nonexistent/memscope", key, "run", 0, stderr, &waited, &e), EXIT_OUTPUT);
    assert_non_null(strstr(e.message, "/nonexistent/memscope/memscope-gpu-GPU-test.lock"));
}

/* build/memscope profiled as a program: the run holds the lock, and memscope-profile's library in the same process
 * asks again. */
static void a_process_that_holds_the_lock_has_it_at_once(void **state)
{
    (void)state;
    struct error e = {0};
    double waited = -1;
    assert_int_equal(gpu_lock_take(folder, key, "memscope -v naive", 0, stderr, &waited, &e), 0);
    assert_int_equal(gpu_lock_take(folder, key, "a program memscope-profile profiles", 0, stderr, &waited, &e), 0);
    pid_t holder = fork();
    assert_true(holder >= 0);
    if (holder == 0) /* another process is still refused */
        _exit(gpu_lock_take(folder, key, "third", 0, stderr, &waited, &e) == EXIT_BUSY ? 0 : 1);
    int status;
    assert_int_equal(waitpid(holder, &status, 0), holder);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    gpu_lock_release();
}

/* The key names the GPU as nvidia-smi does. */
static void the_key_is_the_uuid_as_nvidia_smi_writes_it(void **state)
{
    (void)state;
    const unsigned char uuid[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                                    0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe};
    char text[64];
    gpu_lock_key(uuid, text, sizeof text);
    assert_string_equal(text, "GPU-01234567-89ab-cdef-1032-547698badcfe");
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(folder) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return remove_tree(folder);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_held_gpu_is_refused_at_once_with_no_wait),
        cmocka_unit_test(a_held_gpu_is_waited_for_then_refused),
        cmocka_unit_test(the_gpu_is_taken_once_its_holder_exits),
        cmocka_unit_test(a_lock_folder_that_cannot_be_written_is_an_output_error),
        cmocka_unit_test(a_process_that_holds_the_lock_has_it_at_once),
        cmocka_unit_test(the_key_is_the_uuid_as_nvidia_smi_writes_it),
    };
    return cmocka_run_group_tests_name("gpu_lock", tests, setup, teardown);
}
