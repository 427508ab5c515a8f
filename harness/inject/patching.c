#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_activity.h>

#include "../common/grow.h"
#include "../source/placement.h"
#include "patching.h"

static struct {
    struct prof_sass_session sass;
    int configured;
    struct source_placer placer;
    struct source_capture texts; /* its calls stay empty: each launch keeps its own */
    struct patched_launch *done;
    size_t n_done;
} patching;

static int configure(struct CUctx_st *context, struct prof_error *e)
{
    const char *names[SASS_METRIC_COUNT];
    char chip[sizeof patching.texts.chip];
    uint32_t device;
    for (int m = 0; m < SASS_METRIC_COUNT; ++m)
        names[m] = sass_metric_name(m);
    if (prof_check(e, cuptiGetDeviceId(context, &device), "cuptiGetDeviceId") ||
        prof_chip_name((int)device, chip, sizeof chip, e) ||
        prof_sass_open(&patching.sass, context, (int)device, chip, names, SASS_METRIC_COUNT, e))
        return e->status;
    if (!patching.texts.chip[0]) {
        source_placer_init(&patching.placer);
        snprintf(patching.texts.chip, sizeof patching.texts.chip, "%s", chip);
        patching.texts.metrics_named = SASS_METRIC_COUNT;
    }
    patching.configured = 1;
    return PROF_OK;
}

int patching_begin(struct CUctx_st *context, struct prof_error *e)
{
    if (patching.configured && patching.sass.ctx != context)
        return prof_fail(e, PROF_FAILED, "SASS patching follows one CUDA context; this launch is on another");
    if (!patching.configured && configure(context, e))
        return e->status;
    return prof_sass_begin(&patching.sass, e);
}

/* The function's records, placed on their lines. */
static int keep_launch(struct patched_launch *p, const struct prof_sass_record *records, size_t n,
                       const char *function, struct prof_error *e)
{
    struct error placed = {0};
    /* A name cut short (sass_metrics.h) matches by the part kept: another kernel another thread launched meanwhile
     * would need the same first characters to be taken for this one. */
    for (size_t i = 0; i < n && !placed.code; ++i)
        if (strncmp(records[i].function, function, sizeof records[i].function - 1) == 0)
            source_place(&patching.placer, &records[i], function, &patching.texts, &p->call, &placed);
    if (placed.code)
        return prof_fail(e, PROF_FAILED, "%s", placed.message);
    if (p->call.n == 0) /* every launch runs an instruction: none means the patching missed the kernel */
        return prof_fail(e, PROF_FAILED, "CUPTI's SASS patching recorded no instruction of the kernel");
    return PROF_OK;
}

void patching_end(uint32_t correlation, const char *function, struct prof_error *e)
{
    struct patched_launch p = {.correlation = correlation};
    struct prof_sass_record *records = NULL;
    size_t n = 0;
    if (patching.sass.enabled) /* ended even after a failure: patching must not go on into the next launches */
        prof_sass_end(&patching.sass, &records, &n, e->status ? &(struct prof_error){0} : e);
    if (!e->status)
        keep_launch(&p, records, n, function, e);
    free(records);
    if (e->status) {
        snprintf(p.failure, sizeof p.failure, "%.255s", e->message);
        free(p.call.instructions);
        p.call = (struct source_call){0};
    }
    if (grow_for_one_more((void **)&patching.done, patching.n_done, sizeof *patching.done) == 0)
        patching.done[patching.n_done++] = p;
    else
        free(p.call.instructions);
}

const struct patched_launch *patching_results(size_t *count, const struct source_capture **texts)
{
    *count = patching.n_done;
    *texts = &patching.texts;
    return patching.done;
}

void patching_stop(struct prof_error *e)
{
    if (patching.configured)
        prof_sass_close(&patching.sass, e);
    patching.configured = 0;
}

void patching_free(void)
{
    for (size_t i = 0; i < patching.n_done; ++i)
        free(patching.done[i].call.instructions);
    free(patching.done);
    source_placer_free(&patching.placer);
    source_capture_free(&patching.texts);
    patching.done = NULL;
    patching.n_done = 0;
}
