/*
 * The CUDA graph captures in progress in the process, from the driver's calls that begin and end them (the
 * subscriber passes them here), and the replays they must not meet. While a stream is captured, CUDA forbids
 * synchronizing its context, and in global mode (PyTorch's default) every call that may synchronize, in any thread;
 * such a call ends the capture with an error (cudaErrorStreamCaptureInvalidated). A kernel replay saves and restores
 * device memory, and the stall and source runs synchronize around their launch: no launch is replayed, sampled or
 * patched while any capture is in progress, whatever its mode, and no capture begins while one is. Needs no GPU:
 * tests make the calls' callback data themselves.
 */
#ifndef MEMSCOPE_STREAM_CAPTURE_H
#define MEMSCOPE_STREAM_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

#include <cupti_callbacks.h>

/* The driver calls that begin or end a stream's capture (*ids), and how many; whether id is one. */
size_t prof_capture_calls(const CUpti_CallbackId **ids);
bool prof_capture_call(CUpti_CallbackId id);

/* Notes such a call, on entry and on return. A begin is noted on entry, once no launch is held (below), so that no
 * replay meets the capture it begins, and dropped on return where it failed. An end is noted on return unless the
 * capture goes on: an end called from another thread than the capture allows, or of a stream not capturing. */
void prof_capture_note(CUpti_CallbackId id, const CUpti_CallbackData *call);

/* For a launch about to be replayed, sampled or patched: true when no capture is in progress, and then no capture
 * begins until prof_capture_release; false, holding nothing, while one is. */
bool prof_capture_hold(void);
void prof_capture_release(void);

#endif
