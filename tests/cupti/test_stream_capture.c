/* The graph captures in progress, and whom they forbid to synchronize (cupti/stream_capture.h): a global-mode capture
 * every thread, a thread-local one its own thread, a relaxed one nobody; an ended capture nobody. Driven by the notes
 * the subscriber makes from the driver's calls; no GPU and no CUPTI call is needed. */
#define _XOPEN_SOURCE 700
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../cupti/stream_capture.h"

#define STREAM(n) ((struct CUstream_st *)(uintptr_t)(n))
#define PER_THREAD_STREAM STREAM(2) /* cuda.h's CU_STREAM_PER_THREAD: one handle in every thread */

static void *forbids_in_other_thread(void *answer)
{
    *(bool *)answer = prof_capture_forbids_sync();
    return NULL;
}

static bool another_thread_is_forbidden(void)
{
    pthread_t t;
    bool answer = false;
    assert_int_equal(pthread_create(&t, NULL, forbids_in_other_thread, &answer), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    return answer;
}

static void no_capture_forbids_nothing(void **state)
{
    (void)state;
    assert_false(prof_capture_forbids_sync());
    assert_false(another_thread_is_forbidden());
}

static void a_global_capture_forbids_every_thread_until_it_ends(void **state)
{
    (void)state;
    prof_capture_begun(STREAM(0x100), PROF_CAPTURE_GLOBAL);
    assert_true(prof_capture_forbids_sync());
    assert_true(another_thread_is_forbidden());
    prof_capture_ended(STREAM(0x100));
    assert_false(prof_capture_forbids_sync());
    assert_false(another_thread_is_forbidden());
}

static void a_thread_local_capture_forbids_its_own_thread_only(void **state)
{
    (void)state;
    prof_capture_begun(STREAM(0x100), PROF_CAPTURE_THREAD_LOCAL);
    assert_true(prof_capture_forbids_sync());
    assert_false(another_thread_is_forbidden());
    prof_capture_ended(STREAM(0x100));
    assert_false(prof_capture_forbids_sync());
}

static void a_relaxed_capture_forbids_nobody(void **state)
{
    (void)state;
    prof_capture_begun(STREAM(0x100), PROF_CAPTURE_RELAXED);
    assert_false(prof_capture_forbids_sync());
    assert_false(another_thread_is_forbidden());
    prof_capture_ended(STREAM(0x100));
}

/* Two captures at once: the end of one leaves the other in force. */
static void each_end_ends_its_own_stream_capture(void **state)
{
    (void)state;
    prof_capture_begun(STREAM(0x100), PROF_CAPTURE_RELAXED);
    prof_capture_begun(STREAM(0x200), PROF_CAPTURE_GLOBAL);
    prof_capture_ended(STREAM(0x100));
    assert_true(another_thread_is_forbidden());
    prof_capture_ended(STREAM(0x200));
    assert_false(another_thread_is_forbidden());
}

static void *capture_per_thread_stream(void *ended)
{
    prof_capture_begun(PER_THREAD_STREAM, PROF_CAPTURE_THREAD_LOCAL);
    if (*(bool *)ended)
        prof_capture_ended(PER_THREAD_STREAM);
    return NULL;
}

/* Each thread's per-thread default stream has the same handle: the end of this thread's capture of it ends this
 * thread's, not the other's begun before it. */
static void a_per_thread_streams_capture_ends_in_its_own_thread(void **state)
{
    (void)state;
    pthread_t t;
    bool ended = false;
    assert_int_equal(pthread_create(&t, NULL, capture_per_thread_stream, &ended), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    prof_capture_begun(PER_THREAD_STREAM, PROF_CAPTURE_THREAD_LOCAL);
    prof_capture_ended(PER_THREAD_STREAM);
    assert_false(prof_capture_forbids_sync());
    prof_capture_begun(PER_THREAD_STREAM, PROF_CAPTURE_GLOBAL); /* the other thread's left, then this global one */
    prof_capture_ended(PER_THREAD_STREAM);
    assert_false(prof_capture_forbids_sync());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_capture_forbids_nothing),
        cmocka_unit_test(a_global_capture_forbids_every_thread_until_it_ends),
        cmocka_unit_test(a_thread_local_capture_forbids_its_own_thread_only),
        cmocka_unit_test(a_relaxed_capture_forbids_nobody),
        cmocka_unit_test(each_end_ends_its_own_stream_capture),
        cmocka_unit_test(a_per_thread_streams_capture_ends_in_its_own_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
