#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_activity.h>

#include "activity.h"

/* Large enough that the default suite hands back a few buffers a width, small enough to cost nothing. */
#define BUFFER_BYTES ((size_t)8 << 20)
#define BUFFER_ALIGN 8

static struct {
    pthread_mutex_t lock; /* CUPTI hands buffers back on a thread of its own */
    struct prof_gpu_op *ops;
    size_t count, capacity;
    uint64_t dropped;
    int failed; /* a record could not be kept: out of memory */
    struct prof_api_call *calls; /* kept under the same lock, from prof_activity_record_calls on */
    size_t n_calls, calls_capacity;
} log_ = {.lock = PTHREAD_MUTEX_INITIALIZER};

static const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                           CUPTI_ACTIVITY_KIND_MEMSET};
#define N_KINDS (sizeof kinds / sizeof kinds[0])
static const CUpti_ActivityKind call_kinds[] = {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER};
#define N_CALL_KINDS (sizeof call_kinds / sizeof call_kinds[0])

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(BUFFER_ALIGN, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0; /* a size of 0 tells CUPTI to drop, and count, what does not fit */
    *max_records = 0;
}

/* Room for one more record in *items (count held, *capacity allocated); 0 when memory ran out. */
static int room_for_one_more(void **items, size_t *capacity, size_t count, size_t size)
{
    if (count < *capacity)
        return 1;
    size_t grown_capacity = *capacity ? 2 * *capacity : 4096;
    void *grown = realloc(*items, grown_capacity * size);
    if (!grown) {
        log_.failed = 1;
        return 0;
    }
    *items = grown;
    *capacity = grown_capacity;
    return 1;
}

static struct prof_gpu_op *next_op(void)
{
    if (!room_for_one_more((void **)&log_.ops, &log_.capacity, log_.count, sizeof *log_.ops))
        return NULL;
    struct prof_gpu_op *op = &log_.ops[log_.count++];
    memset(op, 0, sizeof *op);
    return op;
}

/* INTERNAL_LAUNCH_API records (a launch outside any public call) come in the same layout, cbid unused. */
static void keep_call(const CUpti_ActivityAPI *a)
{
    if (room_for_one_more((void **)&log_.calls, &log_.calls_capacity, log_.n_calls, sizeof *log_.calls))
        log_.calls[log_.n_calls++] = (struct prof_api_call){a->start, a->end, a->correlationId, a->threadId, a->cbid};
}

static void keep_kernel(const CUpti_ActivityKernel10 *k)
{
    struct prof_gpu_op *op = next_op();
    if (!op)
        return;
    *op = (struct prof_gpu_op){PROF_OP_KERNEL, k->start, k->end, k->deviceId, k->streamId, k->correlationId,
                               {k->gridX, k->gridY, k->gridZ}, {k->blockX, k->blockY, k->blockZ},
                               k->registersPerThread, k->staticSharedMemory, k->dynamicSharedMemory, 0, 0, "",
                               k->graphId};
    strncpy(op->name, k->name ? k->name : "", sizeof op->name - 1);
}

static void keep_memcpy(const CUpti_ActivityMemcpy6 *m)
{
    struct prof_gpu_op *op = next_op();
    if (op)
        *op = (struct prof_gpu_op){.kind = PROF_OP_MEMCPY, .start_ns = m->start, .end_ns = m->end,
                                   .device = m->deviceId, .stream = m->streamId, .correlation = m->correlationId,
                                   .bytes = m->bytes, .copy_kind = m->copyKind};
}

static void keep_memset(const CUpti_ActivityMemset4 *m)
{
    struct prof_gpu_op *op = next_op();
    if (op)
        *op = (struct prof_gpu_op){.kind = PROF_OP_MEMSET, .start_ns = m->start, .end_ns = m->end,
                                   .device = m->deviceId, .stream = m->streamId, .correlation = m->correlationId,
                                   .bytes = m->bytes};
}

static void keep(const CUpti_Activity *record)
{
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL:
        keep_kernel((const CUpti_ActivityKernel10 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        keep_memcpy((const CUpti_ActivityMemcpy6 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        keep_memset((const CUpti_ActivityMemset4 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
    case CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API:
        keep_call((const CUpti_ActivityAPI *)record);
        break;
    default:
        break;
    }
}

static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    CUpti_Activity *record = NULL;
    size_t dropped = 0;
    pthread_mutex_lock(&log_.lock);
    while (valid > 0 && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
        keep(record);
    if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS)
        log_.dropped += dropped;
    pthread_mutex_unlock(&log_.lock);
    (void)size;
    free(buffer);
}

/* Turns the given kinds of record on or off; the first failure stops it and is recorded in e. */
static int switch_kinds(const CUpti_ActivityKind *which, size_t n, int on, struct prof_error *e)
{
    for (size_t i = 0; i < n; ++i)
        if (prof_check(e, on ? cuptiActivityEnable(which[i]) : cuptiActivityDisable(which[i]),
                       on ? "cuptiActivityEnable" : "cuptiActivityDisable"))
            return e->status;
    return PROF_OK;
}

int prof_activity_start(struct prof_error *e)
{
    if (prof_check(e, cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
                   "cuptiActivityRegisterCallbacks"))
        return e->status;
    return switch_kinds(kinds, N_KINDS, 1, e);
}

int prof_activity_record_calls(struct prof_error *e)
{
    /* gettid, not pthread_self: the id an NVTX hook reads on the calling thread, and one that fits 32 bits */
    if (prof_check(e, cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM), "cuptiSetThreadIdType"))
        return e->status;
    return switch_kinds(call_kinds, N_CALL_KINDS, 1, e);
}

int prof_activity_stop_calls(struct prof_error *e)
{
    return switch_kinds(call_kinds, N_CALL_KINDS, 0, e);
}

const struct prof_api_call *prof_activity_calls(size_t *count)
{
    *count = log_.n_calls;
    return log_.calls;
}

int prof_activity_pause(struct prof_error *e)
{
    return switch_kinds(kinds, N_KINDS, 0, e);
}

int prof_activity_resume(struct prof_error *e)
{
    return switch_kinds(kinds, N_KINDS, 1, e);
}

int prof_activity_flush(struct prof_error *e)
{
    if (prof_check(e, cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll"))
        return e->status;
    if (log_.failed)
        return prof_fail(e, PROF_FAILED, "out of host memory for the GPU's activity records");
    return PROF_OK;
}

int prof_activity_stop(struct prof_error *e)
{
    if (switch_kinds(kinds, N_KINDS, 0, e))
        return e->status;
    return prof_activity_flush(e);
}

const struct prof_gpu_op *prof_activity_ops(size_t *count)
{
    *count = log_.count;
    return log_.ops;
}

uint64_t prof_activity_dropped(void)
{
    return log_.dropped;
}

uint64_t prof_activity_now(void)
{
    uint64_t now = 0;
    cuptiGetTimestamp(&now); /* cannot fail with a valid pointer */
    return now;
}

void prof_activity_free(void)
{
    free(log_.ops);
    log_.ops = NULL;
    log_.count = log_.capacity = 0;
    free(log_.calls);
    log_.calls = NULL;
    log_.n_calls = log_.calls_capacity = 0;
    log_.dropped = 0;
    log_.failed = 0;
}

const char *prof_copy_kind_name(int copy_kind)
{
    switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
        return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
        return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
        return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
        return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        return "PtoP";
    default:
        return "other";
    }
}
