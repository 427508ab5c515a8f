#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>

#include "../common/grow.h"
#include "nvtx.h"

enum { CATEGORY_RUN = 1, CATEGORY_JOB = 2, CATEGORY_FIRST_PHASE = 10 };

static const struct {
    const char *name;
    uint32_t argb;
} phases[PHASE_COUNT] = {
    [PHASE_ALLOCATE] = {"allocate", 0xFF9E9E9E},
    [PHASE_COPY_IN] = {"copy in", 0xFF1E88E5},
    [PHASE_REFERENCE] = {"reference", 0xFF00ACC1},
    [PHASE_VERIFY] = {"verify", 0xFF43A047},
    [PHASE_WARMUP] = {"warm-up", 0xFFFDD835},
    [PHASE_TIMED_RUNS] = {"timed runs", 0xFFE53935},
    [PHASE_COPY_OUT] = {"copy out", 0xFF8E24AA},
    [PHASE_METRICS] = {"metric passes", 0xFFFB8C00},
    [PHASE_SOURCE] = {"source counters", 0xFF00897B},
    [PHASE_STALLS] = {"stall sampling", 0xFFD81B60},
    [PHASE_CEILINGS] = {"ceilings", 0xFF5E35B1},
    [PHASE_RELEASE] = {"release", 0xFF6D4C41},
};

static nvtxDomainHandle_t domain; /* NULL when no tool is attached: every call is then a no-op */
static int initialised;

/* The ranges kept for a trace: those open, innermost last, and those closed. */
#define MAX_DEPTH 16
static struct {
    uint64_t (*clock)(void);
    struct nvtx_range open[MAX_DEPTH];
    int depth;
    struct nvtx_range *closed;
    size_t count;
    int lost; /* memory ran out, or ranges nested deeper than MAX_DEPTH */
} kept;

const char *phase_name(enum phase p)
{
    return phases[p].name;
}

static void keep_open(const char *message, uint32_t category, uint64_t payload)
{
    if (!kept.clock)
        return;
    if (kept.depth == MAX_DEPTH) {
        kept.lost = 1;
        return;
    }
    struct nvtx_range *r = &kept.open[kept.depth];
    snprintf(r->name, sizeof r->name, "%s", message);
    if (category == CATEGORY_JOB)
        snprintf(r->job, sizeof r->job, "%s", message);
    else
        snprintf(r->job, sizeof r->job, "%s", kept.depth > 0 ? kept.open[kept.depth - 1].job : "");
    r->depth = kept.depth++;
    r->width = (int)payload;
    r->start_ns = kept.clock();
}

static void keep_closed(void)
{
    if (!kept.clock || kept.depth == 0)
        return;
    struct nvtx_range *r = &kept.open[--kept.depth];
    r->end_ns = kept.clock();
    if (grow_for_one_more((void **)&kept.closed, kept.count, sizeof *kept.closed) != 0) {
        kept.lost = 1;
        return;
    }
    kept.closed[kept.count++] = *r;
}

void nvtx_record_ranges(uint64_t (*clock)(void))
{
    kept.clock = clock;
}

const struct nvtx_range *nvtx_ranges(size_t *count, int *lost)
{
    *count = kept.count;
    *lost = kept.lost;
    return kept.closed;
}

void nvtx_ranges_free(void)
{
    free(kept.closed);
    memset(&kept, 0, sizeof kept);
}

static void push(const char *message, uint32_t category, uint32_t argb, uint64_t payload)
{
    keep_open(message, category, payload);
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.category = category;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = argb;
    a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    a.payload.ullValue = payload;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = message;
    nvtxDomainRangePushEx(domain, &a);
}

void nvtx_run_begin(void)
{
    if (!initialised) {
        initialised = 1;
        domain = nvtxDomainCreateA("memscope");
        nvtxDomainNameCategoryA(domain, CATEGORY_RUN, "run");
        nvtxDomainNameCategoryA(domain, CATEGORY_JOB, "variant x size");
        for (int p = 0; p < PHASE_COUNT; ++p)
            nvtxDomainNameCategoryA(domain, CATEGORY_FIRST_PHASE + p, phases[p].name);
    }
    push(NVTX_RUN_RANGE, CATEGORY_RUN, 0xFF263238, 0);
}

void nvtx_job_begin(const char *variant, struct product_shape size)
{
    char name[128], label[PRODUCT_SHAPE_LEN];
    snprintf(name, sizeof name, "%s %s", variant, product_shape_label(size, label));
    push(name, CATEGORY_JOB, 0xFF00897B, (uint64_t)product_shape_width(size));
}

void nvtx_phase_begin(enum phase p, int width)
{
    push(phases[p].name, CATEGORY_FIRST_PHASE + p, phases[p].argb, (uint64_t)width);
}

void nvtx_end(void)
{
    keep_closed();
    nvtxDomainRangePop(domain);
}
