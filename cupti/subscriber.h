/*
 * CUPTI allows one subscriber per process; this is it. It keeps a copy of
 * every module's cubin as the driver loads it (mapping an instruction to its
 * source line needs the cubin), and forwards kernel launches to one listener
 * (the range profiler names its ranges with them).
 *
 * Start it before the modules of interest load: with CUDA's default lazy
 * loading, before their kernels' first launch. Like the rest of the target
 * side, it needs a working GPU.
 */
#ifndef MEMSCOPE_SUBSCRIBER_H
#define MEMSCOPE_SUBSCRIBER_H

#include <stddef.h>
#include <stdint.h>

#include "profiler_error.h"

struct CUctx_st;
struct CUfunc_st;
struct CUstream_st;

/* A kernel launch as the driver call that makes it shows it, on entry to the call and again on its return. */
struct prof_launch {
    int entering;                 /* 1 on entry, 0 on return */
    const char *symbol;           /* mangled */
    struct CUctx_st *context;
    struct CUfunc_st *function;
    uint32_t correlation;         /* the driver call's: CUPTI's records of the call carry it too */
    unsigned grid[3], block[3];
    unsigned dynamic_shared;      /* bytes per block */
    struct CUstream_st *stream;   /* the stream it is queued on (a _ptsz call's default: CU_STREAM_PER_THREAD) */
};

typedef void (*prof_launch_listener)(void *context, const struct prof_launch *launch);

struct prof_cubin {
    uint8_t *image;
    size_t size;
    uint32_t crc; /* CUPTI's cubin CRC, as SASS metric records name their module */
};

/* keep_cubins: copy every module's cubin as it loads (prof_cubin_find), which source lines need. */
int prof_subscriber_start(int keep_cubins, struct prof_error *e);
/* Calls listener(context, launch) on entry to every kernel launch and on its return; NULL stops the calls. */
int prof_subscriber_listen(prof_launch_listener listener, void *context, struct prof_error *e);
/* The last kernel launch entered while a listener listened (symbol NULL: CUPTI's text does not outlive the call),
 * for what its function's attributes say of it; 0 when none was seen since the last call. */
int prof_last_launch(struct prof_launch *out);
/* Unsubscribes and frees the cubins; the first failure is recorded in e. */
int prof_subscriber_stop(struct prof_error *e);

/* The cubin a record names, or NULL when it was loaded before the subscriber started. */
const struct prof_cubin *prof_cubin_find(uint32_t crc);
/* The cubins kept so far, in the order their modules loaded: i < prof_cubin_count(). */
size_t prof_cubin_count(void);
const struct prof_cubin *prof_cubin_at(size_t i);

#endif
