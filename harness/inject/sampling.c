#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../source/locate.h"
#include "sampling.h"

static struct {
    struct prof_pcs_session pcs;
    int opened;
    struct stall_reasons reasons;
    struct line_locator locator;
    struct sampled_launch *done;
    size_t n_done;
} sampling;

static int open_on(struct CUctx_st *context, unsigned period_log2, struct prof_error *e)
{
    if (sampling.opened) {
        if (sampling.pcs.ctx != context)
            return prof_fail(e, PROF_FAILED, "PC sampling follows one CUDA context; this launch is on another");
        return PROF_OK;
    }
    line_locator_init(&sampling.locator);
    if (prof_pcs_open(&sampling.pcs, context, period_log2, e))
        return e->status;
    sampling.opened = 1;
    sampling.reasons.n = sampling.pcs.n_reasons;
    memcpy(sampling.reasons.name, sampling.pcs.reason, sizeof sampling.reasons.name);
    return PROF_OK;
}

int sampling_begin(struct CUctx_st *context, unsigned period_log2, struct prof_error *e)
{
    if (open_on(context, period_log2, e) || prof_pcs_set_period(&sampling.pcs, period_log2, e))
        return e->status;
    return prof_pcs_begin(&sampling.pcs, e);
}

/* Each sampled instruction onto its line; as the suite's stall sampling, a kernel with samples lost fails rather
 * than show shares of part of them. A kernel shorter than a sampling period may have none: it has no lines. */
static int place(struct sampled_launch *s, const struct prof_pcs_record *records, size_t n, struct prof_error *e)
{
    struct error placed = {0};
    const struct prof_pcs_totals *t = &s->call.totals;
    if (t->dropped > 0)
        return prof_fail(e, PROF_FAILED, "PC sampling dropped %llu of %llu samples",
                         (unsigned long long)t->dropped, (unsigned long long)t->samples);
    for (size_t i = 0; i < n && !placed.code; ++i) {
        char file[SOURCE_FILE_LEN];
        int line;
        if (line_locate(&sampling.locator, records[i].cubin_crc, records[i].function, records[i].pc, file, &line,
                        &placed) != NULL)
            stall_add(&s->call, records[i].function, file, line, records[i].samples, sampling.reasons.n, &placed);
    }
    return placed.code ? prof_fail(e, PROF_FAILED, "%s", placed.message) : PROF_OK;
}

void sampling_end(uint32_t correlation, int started, struct prof_error *e)
{
    struct sampled_launch s = {.correlation = correlation};
    struct prof_pcs_record *records = NULL;
    size_t n = 0;
    s.call.period_log2 = sampling.pcs.period_log2;
    if (started) { /* stopped even after a failure: sampling must not go on into the program's next launches */
        struct prof_error stopped = {0};
        prof_pcs_end(&sampling.pcs, &records, &n, &s.call.totals, &stopped);
        if (!e->status && stopped.status)
            *e = stopped;
    }
    if (!e->status)
        place(&s, records, n, e);
    free(records);
    if (e->status) {
        snprintf(s.failure, sizeof s.failure, "%.255s", e->message);
        stall_call_free(&s.call);
    }
    if (grow_for_one_more((void **)&sampling.done, sampling.n_done, sizeof *sampling.done) == 0)
        sampling.done[sampling.n_done++] = s;
    else
        stall_call_free(&s.call);
}

int sampling_ready(void)
{
    return sampling.opened;
}

const struct sampled_launch *sampling_results(size_t *count, const struct stall_reasons **reasons)
{
    *count = sampling.n_done;
    *reasons = &sampling.reasons;
    return sampling.done;
}

void sampling_stop(struct prof_error *e)
{
    if (sampling.opened)
        prof_pcs_close(&sampling.pcs, e);
    sampling.opened = 0;
}

void sampling_free(void)
{
    for (size_t i = 0; i < sampling.n_done; ++i)
        stall_call_free(&sampling.done[i].call);
    free(sampling.done);
    sampling.done = NULL;
    sampling.n_done = 0;
}
