#include <pthread.h>
#include <stddef.h>

#include "stream_capture.h"

/* More captures at once than a program runs: one past them is not recorded, and its end finds nothing. */
#define MAX_CAPTURES 64

struct capture {
    struct CUstream_st *stream;
    enum prof_capture_mode mode;
    pthread_t thread;
};

static struct {
    pthread_mutex_t lock;
    struct capture at[MAX_CAPTURES];
    size_t n;
} captures = {.lock = PTHREAD_MUTEX_INITIALIZER};

void prof_capture_begun(struct CUstream_st *stream, enum prof_capture_mode mode)
{
    pthread_mutex_lock(&captures.lock);
    if (captures.n < MAX_CAPTURES)
        captures.at[captures.n++] = (struct capture){stream, mode, pthread_self()};
    pthread_mutex_unlock(&captures.lock);
}

/* The capture of stream begun by this thread, else by any: a per-thread default stream has one handle in every
 * thread, and its capture ends in the thread that began it. */
static struct capture *capture_of(struct CUstream_st *stream)
{
    struct capture *found = NULL;
    for (size_t i = 0; i < captures.n; ++i)
        if (captures.at[i].stream == stream && (!found || pthread_equal(captures.at[i].thread, pthread_self())))
            found = &captures.at[i];
    return found;
}

void prof_capture_ended(struct CUstream_st *stream)
{
    pthread_mutex_lock(&captures.lock);
    struct capture *c = capture_of(stream);
    if (c)
        *c = captures.at[--captures.n];
    pthread_mutex_unlock(&captures.lock);
}

static bool forbids_this_thread(const struct capture *c)
{
    return c->mode == PROF_CAPTURE_GLOBAL ||
           (c->mode == PROF_CAPTURE_THREAD_LOCAL && pthread_equal(c->thread, pthread_self()));
}

bool prof_capture_forbids_sync(void)
{
    bool forbids = false;
    pthread_mutex_lock(&captures.lock);
    for (size_t i = 0; i < captures.n && !forbids; ++i)
        forbids = forbids_this_thread(&captures.at[i]);
    pthread_mutex_unlock(&captures.lock);
    return forbids;
}
