#include <pthread.h>
#include <stddef.h>

#include <cuda.h>
#include <cupti_driver_cbid.h>

#include "stream_capture.h"

/* More captures at once than a program runs; one past them is counted, and keeps every launch back until an end
 * finds no capture of its own. */
#define MAX_CAPTURES 64

struct capture {
    CUstream stream;
    pthread_t thread; /* that began it: a per-thread default stream's handle is the same in every thread */
};

/* held: replays hold it shared from their launch's entry to its return; a begin takes it alone. */
static struct {
    pthread_rwlock_t held;
    pthread_mutex_t lock;
    struct capture at[MAX_CAPTURES];
    size_t n, untracked;
} captures = {.held = PTHREAD_RWLOCK_INITIALIZER, .lock = PTHREAD_MUTEX_INITIALIZER};

/* The begin calls, then the end calls. */
static const CUpti_CallbackId calls[] = {
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture,        CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2,     CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture,          CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz,
};
#define BEGIN_CALLS 6

static bool in_calls(CUpti_CallbackId id, size_t from, size_t to)
{
    for (size_t i = from; i < to; ++i)
        if (calls[i] == id)
            return true;
    return false;
}

static bool is_begin(CUpti_CallbackId id)
{
    return in_calls(id, 0, BEGIN_CALLS);
}

static bool is_end(CUpti_CallbackId id)
{
    return in_calls(id, BEGIN_CALLS, sizeof calls / sizeof calls[0]);
}

size_t prof_capture_calls(const CUpti_CallbackId **ids)
{
    *ids = calls;
    return sizeof calls / sizeof calls[0];
}

bool prof_capture_call(CUpti_CallbackId id)
{
    return is_begin(id) || is_end(id);
}

static bool is_per_thread_call(CUpti_CallbackId id)
{
    return id == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz ||
           id == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz ||
           id == CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz ||
           id == CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz;
}

/* The captured stream: every call's parameters begin with it; a _ptsz call's NULL is the per-thread default stream,
 * which the other calls name CU_STREAM_PER_THREAD. */
static CUstream stream_of(CUpti_CallbackId id, const CUpti_CallbackData *call)
{
    CUstream stream = *(const CUstream *)call->functionParams;
    return !stream && is_per_thread_call(id) ? CU_STREAM_PER_THREAD : stream;
}

/* The capture of stream: the one this thread began, else, for a stream other than the per-thread default, any. */
static struct capture *capture_of(CUstream stream)
{
    struct capture *found = NULL;
    for (size_t i = 0; i < captures.n; ++i) {
        bool mine = pthread_equal(captures.at[i].thread, pthread_self());
        if (captures.at[i].stream == stream && (mine || (!found && stream != CU_STREAM_PER_THREAD)))
            found = &captures.at[i];
    }
    return found;
}

static void add(CUstream stream)
{
    pthread_mutex_lock(&captures.lock);
    if (captures.n < MAX_CAPTURES)
        captures.at[captures.n++] = (struct capture){stream, pthread_self()};
    else
        captures.untracked++;
    pthread_mutex_unlock(&captures.lock);
}

static void drop(CUstream stream)
{
    pthread_mutex_lock(&captures.lock);
    struct capture *c = capture_of(stream);
    if (c)
        *c = captures.at[--captures.n];
    else if (captures.untracked)
        captures.untracked--;
    pthread_mutex_unlock(&captures.lock);
}

/* The end calls that leave the capture in progress: from a thread the capture's mode does not allow, or of a
 * stream not capturing (nothing to drop). */
static bool capture_goes_on(CUresult ended)
{
    return ended == CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD || ended == CUDA_ERROR_ILLEGAL_STATE;
}

void prof_capture_note(CUpti_CallbackId id, const CUpti_CallbackData *call)
{
    CUstream stream = stream_of(id, call);
    bool entering = call->callbackSite == CUPTI_API_ENTER;
    if (is_begin(id) && entering) {
        pthread_rwlock_wrlock(&captures.held); /* waits for the replays in flight */
        add(stream);
        pthread_rwlock_unlock(&captures.held);
    } else if (!entering && (is_begin(id) || is_end(id))) {
        CUresult returned = *(const CUresult *)call->functionReturnValue;
        if ((is_begin(id) && returned != CUDA_SUCCESS) || (is_end(id) && !capture_goes_on(returned)))
            drop(stream);
    }
}

bool prof_capture_hold(void)
{
    pthread_rwlock_rdlock(&captures.held);
    pthread_mutex_lock(&captures.lock);
    bool none = captures.n == 0 && captures.untracked == 0;
    pthread_mutex_unlock(&captures.lock);
    if (!none)
        pthread_rwlock_unlock(&captures.held);
    return none;
}

void prof_capture_release(void)
{
    pthread_rwlock_unlock(&captures.held);
}
