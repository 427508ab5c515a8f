/* The graph captures in progress (cupti/stream_capture.h), fed the driver's begin and end calls as CUPTI's callbacks
 * give them: while any capture is in progress no launch is held for a replay, a failed begin and an end that ends
 * nothing are not counted, a per-thread default stream is one stream under both its names and one per thread, and a
 * begin waits for a held launch. No GPU and no CUPTI call is needed: the callback data are made here. Each test ends
 * every capture it began. */
#define _XOPEN_SOURCE 700
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>
#include <cuda.h>
#include <cupti_driver_cbid.h>

#include "../../cupti/stream_capture.h"

#define STREAM(n) ((CUstream)(uintptr_t)(n))

/* One driver call's entry and return, as the subscriber passes them; returned is the call's result. */
static void call(CUpti_CallbackId id, CUstream stream, CUresult returned)
{
    CUpti_CallbackData data = {.functionParams = &stream, .functionReturnValue = &returned};
    data.callbackSite = CUPTI_API_ENTER;
    prof_capture_note(id, &data);
    data.callbackSite = CUPTI_API_EXIT;
    prof_capture_note(id, &data);
}

static void begin(CUstream stream)
{
    call(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, stream, CUDA_SUCCESS);
}

static void end(CUstream stream)
{
    call(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, stream, CUDA_SUCCESS);
}

/* Whether a launch could be held now (and then lets it go). */
static bool launch_held(void)
{
    if (!prof_capture_hold())
        return false;
    prof_capture_release();
    return true;
}

static void the_capture_calls_are_known_and_no_other(void **state)
{
    (void)state;
    const CUpti_CallbackId *ids;
    size_t n = prof_capture_calls(&ids);
    assert_int_equal(n, 8);
    for (size_t i = 0; i < n; ++i)
        assert_true(prof_capture_call(ids[i]));
    assert_false(prof_capture_call(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel));
    assert_false(prof_capture_call(CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing));
}

static void a_capture_keeps_launches_from_being_held_until_it_ends(void **state)
{
    (void)state;
    assert_true(launch_held());
    begin(STREAM(0x100));
    assert_false(launch_held());
    call(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz, STREAM(0x200), CUDA_SUCCESS);
    end(STREAM(0x100));
    assert_false(launch_held()); /* the other stream still captures */
    call(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz, STREAM(0x200), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    assert_true(launch_held()); /* an invalidated capture ends too */
}

static void a_begin_that_failed_is_not_counted(void **state)
{
    (void)state;
    call(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture, STREAM(0x100), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    assert_true(launch_held());
}

/* An end from a thread the capture's mode does not allow, or of a stream not capturing, leaves the capture on. */
static void an_end_that_ends_nothing_leaves_the_capture_on(void **state)
{
    (void)state;
    begin(STREAM(0x100));
    call(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, STREAM(0x100), CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD);
    assert_false(launch_held());
    call(CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, STREAM(0x100), CUDA_ERROR_ILLEGAL_STATE);
    assert_false(launch_held());
    end(STREAM(0x100));
    assert_true(launch_held());
}

/* A _ptsz call's NULL stream is the per-thread default stream, which the other calls name CU_STREAM_PER_THREAD. */
static void the_per_thread_default_stream_is_one_stream_under_both_names(void **state)
{
    (void)state;
    call(CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz, NULL, CUDA_SUCCESS);
    assert_false(launch_held());
    end(CU_STREAM_PER_THREAD);
    assert_true(launch_held());
}

static pthread_barrier_t begun, checked;

static void *capture_own_default_stream(void *unused)
{
    (void)unused;
    begin(CU_STREAM_PER_THREAD);
    pthread_barrier_wait(&begun);
    pthread_barrier_wait(&checked);
    end(CU_STREAM_PER_THREAD);
    return NULL;
}

/* Each thread's per-thread default stream has the one handle: this thread's end of its own capture of it leaves
 * another thread's on. */
static void each_threads_default_stream_is_its_own(void **state)
{
    (void)state;
    pthread_t other;
    assert_int_equal(pthread_barrier_init(&begun, NULL, 2), 0);
    assert_int_equal(pthread_barrier_init(&checked, NULL, 2), 0);
    assert_int_equal(pthread_create(&other, NULL, capture_own_default_stream, NULL), 0);
    pthread_barrier_wait(&begun);
    begin(CU_STREAM_PER_THREAD);
    end(CU_STREAM_PER_THREAD);
    bool held = launch_held();
    pthread_barrier_wait(&checked);
    assert_int_equal(pthread_join(other, NULL), 0);
    pthread_barrier_destroy(&begun);
    pthread_barrier_destroy(&checked);
    assert_false(held);
    assert_true(launch_held());
}

static volatile int began;

static void *begin_a_capture(void *unused)
{
    (void)unused;
    begin(STREAM(0x100));
    began = 1;
    return NULL;
}

/* A begin entered while a launch is held waits until it is let go: no replay meets the capture. */
static void a_begin_waits_for_the_held_launch(void **state)
{
    (void)state;
    pthread_t other;
    began = 0;
    assert_true(prof_capture_hold());
    assert_int_equal(pthread_create(&other, NULL, begin_a_capture, NULL), 0);
    nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
    int before_release = began;
    prof_capture_release();
    assert_int_equal(pthread_join(other, NULL), 0);
    assert_int_equal(before_release, 0);
    assert_int_equal(began, 1);
    assert_false(launch_held());
    end(STREAM(0x100));
    assert_true(launch_held());
}

/* Past the captures it keeps, one more still keeps launches back, until an end finds no capture of its own. */
static void a_capture_past_the_table_still_counts(void **state)
{
    (void)state;
    const int kept = 64;
    for (int i = 0; i <= kept; ++i)
        begin(STREAM(0x1000 + i));
    for (int i = 0; i < kept; ++i)
        end(STREAM(0x1000 + i));
    assert_false(launch_held());
    end(STREAM(0x1000 + kept));
    assert_true(launch_held());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_capture_calls_are_known_and_no_other),
        cmocka_unit_test(a_capture_keeps_launches_from_being_held_until_it_ends),
        cmocka_unit_test(a_begin_that_failed_is_not_counted),
        cmocka_unit_test(an_end_that_ends_nothing_leaves_the_capture_on),
        cmocka_unit_test(the_per_thread_default_stream_is_one_stream_under_both_names),
        cmocka_unit_test(each_threads_default_stream_is_its_own),
        cmocka_unit_test(a_begin_waits_for_the_held_launch),
        cmocka_unit_test(a_capture_past_the_table_still_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
