#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_pcsampling.h>

#include "pc_sampling.h"

/* PCs read back per cuptiPCSamplingGetData call; more are read in further calls. */
#define PCS_BUFFER_PCS 4096
#define PCS_WORKER_SLEEP_MS 5

static const char reason_prefix[] = "smsp__pcsamp_warps_issue_stalled_";
static const char not_issued_suffix[] = "_not_issued";

void prof_pcs_reason_name(const char *cupti_name, char *out, size_t len)
{
    size_t n = strlen(cupti_name), suffix = sizeof not_issued_suffix - 1;
    out[0] = '\0';
    if (n >= suffix && strcmp(cupti_name + n - suffix, not_issued_suffix) == 0)
        return;
    if (strncmp(cupti_name, reason_prefix, sizeof reason_prefix - 1) == 0)
        cupti_name += sizeof reason_prefix - 1;
    snprintf(out, len, "%s", cupti_name);
}

static CUpti_PCSamplingData *buffer_new(int n_reasons)
{
    CUpti_PCSamplingData *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->size = sizeof *d;
    d->collectNumPcs = PCS_BUFFER_PCS;
    d->pPcData = calloc(PCS_BUFFER_PCS, sizeof *d->pPcData);
    for (size_t i = 0; d->pPcData && i < PCS_BUFFER_PCS; ++i) {
        d->pPcData[i].size = sizeof d->pPcData[i];
        if (!(d->pPcData[i].stallReason = calloc((size_t)n_reasons, sizeof *d->pPcData[i].stallReason)))
            break;
    }
    return d;
}

static void buffer_free(CUpti_PCSamplingData *d)
{
    if (!d)
        return;
    for (size_t i = 0; d->pPcData && i < PCS_BUFFER_PCS; ++i)
        free(d->pPcData[i].stallReason);
    free(d->pPcData);
    free(d);
}

static bool buffer_complete(const CUpti_PCSamplingData *d)
{
    return d && d->pPcData && d->pPcData[PCS_BUFFER_PCS - 1].stallReason;
}

static int read_reasons(struct prof_pcs_session *s, struct prof_error *e)
{
    size_t count = 0;
    CUpti_PCSamplingGetNumStallReasonsParams num = {.size = CUpti_PCSamplingGetNumStallReasonsParamsSize};
    num.ctx = s->ctx;
    num.numStallReasons = &count;
    if (prof_check(e, cuptiPCSamplingGetNumStallReasons(&num), "cuptiPCSamplingGetNumStallReasons"))
        return e->status;
    if (count == 0 || count > 2 * PROF_PCS_MAX_REASONS)
        return prof_fail(e, PROF_FAILED, "CUPTI offers %zu stall reasons; memscope reads 1 to %d", count,
                         2 * PROF_PCS_MAX_REASONS);
    static char names[2 * PROF_PCS_MAX_REASONS][CUPTI_STALL_REASON_STRING_SIZE];
    char *name_of[2 * PROF_PCS_MAX_REASONS];
    for (size_t i = 0; i < count; ++i)
        name_of[i] = names[i];
    CUpti_PCSamplingGetStallReasonsParams p = {.size = CUpti_PCSamplingGetStallReasonsParamsSize};
    p.ctx = s->ctx;
    p.numStallReasons = count;
    p.stallReasonIndex = s->all_index;
    p.stallReasons = name_of;
    if (prof_check(e, cuptiPCSamplingGetStallReasons(&p), "cuptiPCSamplingGetStallReasons"))
        return e->status;
    s->n_all = (int)count;
    for (size_t i = 0; i < count; ++i) {
        char name[PROF_PCS_REASON_LEN];
        prof_pcs_reason_name(names[i], name, sizeof name);
        if (!name[0])
            continue;
        if (s->n_reasons == PROF_PCS_MAX_REASONS) /* a reason left out would break "the reasons add up" */
            return prof_fail(e, PROF_FAILED, "CUPTI offers more than %d stall reasons; memscope keeps %d",
                             PROF_PCS_MAX_REASONS, PROF_PCS_MAX_REASONS);
        snprintf(s->reason[s->n_reasons], PROF_PCS_REASON_LEN, "%s", name);
        s->reason_index[s->n_reasons++] = s->all_index[i];
    }
    return PROF_OK;
}

static int configure(struct prof_pcs_session *s, struct prof_error *e)
{
    CUpti_PCSamplingConfigurationInfo info[7] = {0};
    info[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    info[0].attributeData.collectionModeData.collectionMode = CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
    info[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
    info[1].attributeData.enableStartStopControlData.enableStartStopControl = 1;
    info[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    info[2].attributeData.samplingPeriodData.samplingPeriod = s->period_log2;
    info[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
    info[3].attributeData.stallReasonData.stallReasonCount = (size_t)s->n_all;
    info[3].attributeData.stallReasonData.pStallReasonIndex = s->all_index;
    info[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
    info[4].attributeData.outputDataFormatData.outputDataFormat = CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
    info[5].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    info[5].attributeData.samplingDataBufferData.samplingDataBuffer = s->configured;
    /* CUPTI's worker threads sleep 100 ms between rounds by default, and every stop waits for one */
    info[6].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_WORKER_THREAD_PERIODIC_SLEEP_SPAN;
    info[6].attributeData.workerThreadPeriodicSleepSpanData.workerThreadPeriodicSleepSpan = PCS_WORKER_SLEEP_MS;
    CUpti_PCSamplingConfigurationInfoParams p = {.size = CUpti_PCSamplingConfigurationInfoParamsSize};
    p.ctx = s->ctx;
    p.numAttributes = sizeof info / sizeof info[0];
    p.pPCSamplingConfigurationInfo = info;
    if (cuptiPCSamplingSetConfigurationAttribute(&p) != CUPTI_SUCCESS) {
        for (size_t i = 0; i < p.numAttributes; ++i)
            if (info[i].attributeStatus != CUPTI_SUCCESS) {
                char call[96];
                snprintf(call, sizeof call, "cuptiPCSamplingSetConfigurationAttribute (attribute %d)",
                         (int)info[i].attributeType);
                return prof_check(e, info[i].attributeStatus, call);
            }
        return prof_fail(e, PROF_FAILED, "cuptiPCSamplingSetConfigurationAttribute failed");
    }
    return PROF_OK;
}

static int period_in_range(unsigned period_log2, struct prof_error *e)
{
    if (period_log2 < 5 || period_log2 > 31)
        return prof_fail(e, PROF_FAILED, "a sampling period of 2^%u cycles: from 2^5 to 2^31", period_log2);
    return PROF_OK;
}

int prof_pcs_open(struct prof_pcs_session *s, struct CUctx_st *ctx, unsigned period_log2, struct prof_error *e)
{
    *s = (struct prof_pcs_session){.ctx = ctx, .period_log2 = period_log2};
    if (period_in_range(period_log2, e))
        return e->status;
    CUpti_PCSamplingEnableParams p = {.size = CUpti_PCSamplingEnableParamsSize};
    p.ctx = s->ctx;
    if (prof_check(e, cuptiPCSamplingEnable(&p), "cuptiPCSamplingEnable"))
        return e->status;
    s->enabled = 1;
    if (read_reasons(s, e))
        return e->status;
    s->configured = buffer_new(s->n_all);
    s->drained = buffer_new(s->n_all);
    if (!buffer_complete(s->configured) || !buffer_complete(s->drained))
        return prof_fail(e, PROF_FAILED, "out of memory for PC sampling buffers");
    return configure(s, e);
}

int prof_pcs_set_period(struct prof_pcs_session *s, unsigned period_log2, struct prof_error *e)
{
    if (period_in_range(period_log2, e))
        return e->status;
    if (period_log2 == s->period_log2)
        return PROF_OK;
    CUpti_PCSamplingConfigurationInfo info = {0};
    info.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    info.attributeData.samplingPeriodData.samplingPeriod = period_log2;
    CUpti_PCSamplingConfigurationInfoParams p = {.size = CUpti_PCSamplingConfigurationInfoParamsSize};
    p.ctx = s->ctx;
    p.numAttributes = 1;
    p.pPCSamplingConfigurationInfo = &info;
    if (prof_check(e, cuptiPCSamplingSetConfigurationAttribute(&p), "cuptiPCSamplingSetConfigurationAttribute"))
        return e->status;
    s->period_log2 = period_log2;
    return PROF_OK;
}

int prof_pcs_begin(struct prof_pcs_session *s, struct prof_error *e)
{
    CUpti_PCSamplingStartParams p = {.size = CUpti_PCSamplingStartParamsSize};
    p.ctx = s->ctx;
    return prof_check_sampler(e, cuptiPCSamplingStart(&p), "cuptiPCSamplingStart");
}

static int kept_reason(const struct prof_pcs_session *s, uint32_t index)
{
    for (int r = 0; r < s->n_reasons; ++r)
        if (s->reason_index[r] == index)
            return r;
    return -1;
}

/* Appends the buffer's PCs to *out (grown as needed) and empties the buffer. */
static int take(struct prof_pcs_session *s, CUpti_PCSamplingData *d, struct prof_pcs_record **out, size_t *n,
                size_t *room, struct prof_error *e)
{
    for (size_t i = 0; i < d->totalNumPcs && !e->status; ++i) {
        const CUpti_PCSamplingPCData *pc = &d->pPcData[i];
        if (*n == *room) {
            size_t bigger = *room ? 2 * *room : 1024;
            struct prof_pcs_record *grown = realloc(*out, bigger * sizeof *grown);
            if (!grown)
                return prof_fail(e, PROF_FAILED, "out of memory for PC sampling records");
            *out = grown;
            *room = bigger;
        }
        struct prof_pcs_record *r = &(*out)[(*n)++];
        memset(r, 0, sizeof *r);
        r->cubin_crc = (uint32_t)pc->cubinCrc;
        r->pc = (uint32_t)pc->pcOffset;
        if (snprintf(r->function, sizeof r->function, "%s", pc->functionName ? pc->functionName : "") >=
            (int)sizeof r->function)
            return prof_fail(e, PROF_FAILED, "a kernel name of %zu characters or more: memscope keeps %zu",
                             sizeof r->function, sizeof r->function - 1);
        for (size_t k = 0; k < pc->stallReasonCount; ++k) {
            int kept = kept_reason(s, pc->stallReason[k].pcSamplingStallReasonIndex);
            if (kept >= 0)
                r->samples[kept] += pc->stallReason[k].samples;
        }
    }
    d->totalNumPcs = 0;
    return e->status;
}

static int by_place(const void *a, const void *b)
{
    const struct prof_pcs_record *x = a, *y = b;
    if (x->cubin_crc != y->cubin_crc)
        return x->cubin_crc < y->cubin_crc ? -1 : 1;
    int c = strcmp(x->function, y->function);
    if (c)
        return c;
    return (x->pc > y->pc) - (x->pc < y->pc);
}

/* One record per instruction: a PC read in two buffers is summed. */
static size_t merge(const struct prof_pcs_session *s, struct prof_pcs_record *r, size_t n)
{
    size_t kept = 0;
    qsort(r, n, sizeof *r, by_place);
    for (size_t i = 0; i < n; ++i) {
        if (kept > 0 && by_place(&r[kept - 1], &r[i]) == 0) {
            for (int k = 0; k < s->n_reasons; ++k)
                r[kept - 1].samples[k] += r[i].samples[k];
            continue;
        }
        r[kept++] = r[i];
    }
    return kept;
}

static void add_totals(struct prof_pcs_totals *t, const CUpti_PCSamplingData *d)
{
    t->samples += d->totalSamples;
    t->dropped += d->droppedSamples;
    t->non_user += d->nonUsrKernelsTotalSamples;
}

static int drain(struct prof_pcs_session *s, struct prof_pcs_record **out, size_t *n, size_t *room,
                 struct prof_pcs_totals *totals, struct prof_error *e)
{
    CUpti_PCSamplingData *d = s->drained, *configured = s->configured;
    do {
        CUpti_PCSamplingGetDataParams p = {.size = CUpti_PCSamplingGetDataParamsSize};
        p.ctx = s->ctx;
        p.pcSamplingData = d;
        CUptiResult rc = cuptiPCSamplingGetData(&p);
        if (rc != CUPTI_SUCCESS && d->hardwareBufferFull)
            return prof_fail(e, PROF_FAILED, "the PC sampling hardware buffer filled up: sample less often");
        if (prof_check(e, rc, "cuptiPCSamplingGetData"))
            return e->status;
        add_totals(totals, d);
        take(s, d, out, n, room, e);
    } while (!e->status && d->remainingNumPcs > 0);
    /* CUPTI moves records into the configured buffer itself when its own fill up, and drops what does not fit */
    if (!e->status && configured->totalNumPcs >= configured->collectNumPcs)
        return prof_fail(e, PROF_FAILED, "CUPTI's PC sampling buffer filled up (%zu PCs): records were lost",
                         configured->collectNumPcs);
    if (!e->status && configured->totalNumPcs > 0) {
        add_totals(totals, configured);
        take(s, configured, out, n, room, e);
    }
    return e->status;
}

int prof_pcs_end(struct prof_pcs_session *s, struct prof_pcs_record **records, size_t *n,
                 struct prof_pcs_totals *totals, struct prof_error *e)
{
    size_t room = 0;
    *records = NULL;
    *n = 0;
    *totals = (struct prof_pcs_totals){0};
    CUpti_PCSamplingStopParams p = {.size = CUpti_PCSamplingStopParamsSize};
    p.ctx = s->ctx;
    if (prof_check_sampler(e, cuptiPCSamplingStop(&p), "cuptiPCSamplingStop") == PROF_OK)
        drain(s, records, n, &room, totals, e);
    if (!e->status)
        *n = merge(s, *records, *n);
    if (e->status) {
        free(*records);
        *records = NULL;
        *n = 0;
    }
    return e->status;
}

static int by_address(const void *a, const void *b)
{
    const char *x = *(char *const *)a, *y = *(char *const *)b;
    return (x > y) - (x < y);
}

/* CUPTI's function-name strings are the caller's to free (cupti_pcsampling.h), once each, as NVIDIA's
 * samples do: those the buffers' slots hold at the end, a string being shared by many slots. */
static void free_names(const CUpti_PCSamplingData *a, const CUpti_PCSamplingData *b)
{
    const CUpti_PCSamplingData *buffers[] = {a, b};
    char **names = calloc(2 * PCS_BUFFER_PCS, sizeof *names);
    size_t n = 0;
    for (int k = 0; names && k < 2; ++k)
        for (size_t i = 0; buffers[k] && buffers[k]->pPcData && i < PCS_BUFFER_PCS; ++i)
            if (buffers[k]->pPcData[i].functionName)
                names[n++] = buffers[k]->pPcData[i].functionName;
    if (n)
        qsort(names, n, sizeof *names, by_address);
    for (size_t i = 0; i < n; ++i)
        if (i == 0 || names[i] != names[i - 1])
            free(names[i]);
    free(names);
}

int prof_pcs_close(struct prof_pcs_session *s, struct prof_error *e)
{
    if (s->enabled) {
        CUpti_PCSamplingDisableParams p = {.size = CUpti_PCSamplingDisableParamsSize};
        p.ctx = s->ctx;
        prof_check(e, cuptiPCSamplingDisable(&p), "cuptiPCSamplingDisable");
    }
    free_names(s->configured, s->drained);
    buffer_free(s->configured);
    buffer_free(s->drained);
    *s = (struct prof_pcs_session){0};
    return e->status;
}
