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

typedef void (*prof_launch_listener)(void *context, const char *symbol);

struct prof_cubin {
    uint8_t *image;
    size_t size;
    uint32_t crc; /* CUPTI's cubin CRC, as SASS metric records name their module */
};

int prof_subscriber_start(struct prof_error *e);
/* Calls listener(context, mangled kernel name) on entry to every kernel launch; NULL stops the calls. */
int prof_subscriber_listen(prof_launch_listener listener, void *context, struct prof_error *e);
/* Unsubscribes and frees the cubins; the first failure is recorded in e. */
int prof_subscriber_stop(struct prof_error *e);

/* The cubin a record names, or NULL when it was loaded before the subscriber started. */
const struct prof_cubin *prof_cubin_find(uint32_t crc);

#endif
