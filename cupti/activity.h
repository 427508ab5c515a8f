/*
 * What ran on the GPU, from CUPTI's Activity API: every kernel, memcpy and
 * memset, with its start and end on CUPTI's clock, which prof_activity_now
 * reads too, so that host events can be placed beside them on one clock;
 * on request also the CUDA calls that asked for them (prof_activity_record_calls).
 * CUPTI fills buffers and hands them back, full or when flushed; a record is
 * lost only when CUPTI says so, and prof_activity_dropped counts those.
 * Independent of the subscriber (subscriber.h): it needs no callback of its
 * own. Like the rest of the target side, it needs a working GPU.
 */
#ifndef MEMSCOPE_ACTIVITY_H
#define MEMSCOPE_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

#include "profiler_error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum prof_gpu_op_kind { PROF_OP_KERNEL, PROF_OP_MEMCPY, PROF_OP_MEMSET };

#define PROF_OP_NAME_LEN 512

struct prof_gpu_op {
    enum prof_gpu_op_kind kind;
    uint64_t start_ns, end_ns; /* CUPTI's clock */
    uint32_t device, stream, correlation;
    int grid[3], block[3];                            /* kernels */
    int registers, static_shared, dynamic_shared;     /* kernels: per thread, bytes per block */
    uint64_t bytes;                                   /* memcpy and memset */
    int copy_kind;                                    /* memcpy: CUpti_ActivityMemcpyKind */
    char name[PROF_OP_NAME_LEN];                      /* kernels: the symbol as CUPTI gives it, mangled */
    uint32_t graph; /* kernels: the CUDA graph that launched it (CUPTI's graph id), 0 for a launch of its own */
};

/* A CUDA runtime or driver call, kept compactly: what a GPU record's correlation id leads to, the host thread
 * that asked for the work and when. */
struct prof_api_call {
    uint64_t start_ns, end_ns; /* CUPTI's clock */
    uint32_t correlation;
    uint32_t thread; /* the system's thread id (gettid) */
    uint32_t cbid;   /* CUPTI's callback id of the function, runtime or driver */
};

/* Records every kernel, memcpy and memset from now on. */
int prof_activity_start(struct prof_error *e);
/* Hands back every buffer CUPTI holds, so that prof_activity_ops sees all that completed. */
int prof_activity_flush(struct prof_error *e);
/* Records no kernel, copy or set for a while, and again from resume on: CUPTI's kernel records and its SASS
 * instrumentation (the range profiler's smsp__sass_* metrics, the SASS metrics) do not go together; with both on,
 * the instrumented counts read 0. */
int prof_activity_pause(struct prof_error *e);
int prof_activity_resume(struct prof_error *e);
/* Flushes and records no more. */
int prof_activity_stop(struct prof_error *e);
/* After prof_activity_start: also records every runtime and driver call, its thread named by the system's id. */
int prof_activity_record_calls(struct prof_error *e);
/* Records no more calls (prof_activity_stop then flushes what was recorded). */
int prof_activity_stop_calls(struct prof_error *e);
/* The calls so far, in the order CUPTI handed them back. */
const struct prof_api_call *prof_activity_calls(size_t *count);
/* The records so far, in the order CUPTI handed them back. */
const struct prof_gpu_op *prof_activity_ops(size_t *count);
/* Records CUPTI reported lost (a full buffer it could not hand back in time). */
uint64_t prof_activity_dropped(void);
/* CUPTI's clock now, in nanoseconds: the clock of the records. */
uint64_t prof_activity_now(void);
void prof_activity_free(void);
/* "HtoD", "DtoH", "DtoD"... for a memcpy's copy_kind. */
const char *prof_copy_kind_name(int copy_kind);

#ifdef __cplusplus
}
#endif

#endif
