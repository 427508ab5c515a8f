/*
 * The target side of CUPTI profiling (needs a GPU): each kernel launched
 * during a pass becomes one range (auto range), so a call that launches
 * several kernels, such as cuBLAS, yields one range per kernel, each under its
 * own kernel name. Either the caller replays the work itself, once per pass,
 * until CUPTI has every pass it needs (user replay): CUPTI then neither saves
 * nor restores device memory, and the caller can prepare the caches before
 * each pass; the work must give the same result every time it runs. Or, for
 * a program memscope did not write, CUPTI replays each kernel inside its
 * launch (kernel replay).
 *
 * CUPTI crashes instead of failing on some of these calls when no GPU is
 * present: callers must have a working device before opening a session.
 */
#ifndef MEMSCOPE_RANGE_PROFILER_H
#define MEMSCOPE_RANGE_PROFILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metric_host.h"
#include "profiler_error.h"

struct CUctx_st; /* cuda.h's CUcontext, declared so that callers need not include cuda.h */

#define PROF_MAX_RANGES 256
#define PROF_KERNEL_NAME_LEN 256

/* Where one configuration's counters land. */
struct prof_counter_data {
    const struct prof_config *config;
    uint8_t *image;
    size_t size;
};

/* Who runs the work again for each pass: the caller (see above), or CUPTI inside each kernel's launch. */
enum prof_replay { PROF_USER_REPLAY, PROF_KERNEL_REPLAY };

struct prof_session {
    struct CUpti_RangeProfiler_Object *object;
    size_t max_ranges;
    enum prof_replay replay;
    /* Auto ranges are numbered, not named: each pass's launches are recorded (range i is launch i) to keep kernel names. */
    int listening;
    int recording;
    size_t launches;
    char kernel_names[PROF_MAX_RANGES][PROF_KERNEL_NAME_LEN]; /* as the driver saw them (mangled) */
};

/* The calling thread's current CUDA context (the device's primary one, made current if none is), through the
 * CUDA runtime (current_context.c): the injection library, which links no runtime, has its launches' contexts. */
int prof_current_context(struct CUctx_st **ctx, struct prof_error *e);

/* CUPTI's name for the chip of a device, e.g. "GH100". */
int prof_chip_name(int device, char *chip, size_t len, struct prof_error *e);

/* Opens on ctx; at most max_ranges (<= PROF_MAX_RANGES) kernels per begin/end. With user replay it listens to
 * launches through the process's subscriber (subscriber.h), which must be started, to name the ranges. With
 * kernel replay (a program memscope did not write) each kernel launched between pass begin and end is one range,
 * and its launch returns only after CUPTI has run it once per pass, saving and restoring the device memory it may
 * write around each; the ranges are not named: the caller knows its launches. */
int prof_session_open(struct prof_session *s, struct CUctx_st *ctx, size_t max_ranges, enum prof_replay replay,
                      struct prof_error *e);
int prof_counter_data_create(struct prof_session *s, const struct prof_config *config, struct prof_counter_data *d,
                             struct prof_error *e);
void prof_counter_data_free(struct prof_counter_data *d);
/* Programs the counters with d's configuration and collects into d from the first pass on. */
int prof_session_begin(struct prof_session *s, struct prof_counter_data *d, struct prof_error *e);
/* Brackets one run of the work; after the last pass it needs, CUPTI sets *all_passes_done. */
int prof_pass_begin(struct prof_session *s, struct prof_error *e);
int prof_pass_end(struct prof_session *s, bool *all_passes_done, struct prof_error *e);
/* Decodes every pass into d and says how many ranges d now holds. */
int prof_session_end(struct prof_session *s, struct prof_counter_data *d, size_t *ranges, struct prof_error *e);
/* Records a failure to unsubscribe or disable in e (the first failure wins) and clears s regardless. */
int prof_session_close(struct prof_session *s, struct prof_error *e);

/* Ranges held by a counter data image; needs no GPU, so it serves offline decoding too. */
int prof_range_count(const uint8_t *counter_data, size_t size, size_t *ranges, struct prof_error *e);

#endif
