/*
 * The CUDA graph captures in progress in the process, as the subscriber sees their driver calls begin and end
 * (subscriber.c), and what they forbid. While a stream is captured in global mode, CUDA forbids every thread the
 * calls that may synchronize (a blocking copy, a context synchronize); in thread-local mode, the capturing thread
 * alone; in relaxed mode, none. Such a call ends the capture with an error (cudaErrorStreamCaptureInvalidated), and a
 * kernel replay, or the synchronize around PC sampling or SASS patching, makes them: a launch selected while they
 * are forbidden must be kept back. Needs no GPU: tests drive it by the two notes below.
 */
#ifndef MEMSCOPE_STREAM_CAPTURE_H
#define MEMSCOPE_STREAM_CAPTURE_H

#include <stdbool.h>

struct CUstream_st;

/* cuda.h's CUstreamCaptureMode, in its order. */
enum prof_capture_mode { PROF_CAPTURE_GLOBAL, PROF_CAPTURE_THREAD_LOCAL, PROF_CAPTURE_RELAXED };

/* The calling thread began capturing stream (its begin call succeeded); and a capture of stream ended (whatever the
 * end call returned: the stream captures no longer). */
void prof_capture_begun(struct CUstream_st *stream, enum prof_capture_mode mode);
void prof_capture_ended(struct CUstream_st *stream);

/* Whether the calling thread may not synchronize now: a global-mode capture in progress in any thread, or a
 * thread-local one in this thread. A thread that exchanged its own mode for relaxed is answered as if it had not. */
bool prof_capture_forbids_sync(void);

#endif
