#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <wchar.h>

#include <nvtx3/nvToolsExt.h>

#include "../../cupti/activity.h"
#include "../common/grow.h"
#include "nvtx_hook.h"
#include "protocol.h"

#define EXPORTED __attribute__((visibility("default")))

/* A domain handle is one of these slots: NVTX leaves the type to the tool. Past the last, a domain shares it. */
#define MAX_DOMAINS 64
struct nvtxDomainRegistration_st {
    int slot;
};
static struct nvtxDomainRegistration_st domains[MAX_DOMAINS];

/* Each thread's stacks, one per domain it pushed in (the default domain's handle is NULL). */
#define MAX_STACKS 16
#define MAX_DEPTH 64
#define NOT_KEPT SIZE_MAX
struct stack {
    nvtxDomainHandle_t domain;
    int depth;                /* may pass MAX_DEPTH: the ranges past it are not kept, but still popped */
    size_t kept[MAX_DEPTH];   /* each open range's index in kept.ranges, or NOT_KEPT */
};
static _Thread_local struct stack stacks[MAX_STACKS];
static _Thread_local int n_stacks;

static struct {
    pthread_mutex_t lock; /* the program's threads push and pop at once */
    struct kept_range *ranges;
    size_t count, lost;
    int n_domains, stopped;
} kept = {.lock = PTHREAD_MUTEX_INITIALIZER};

static uint32_t thread_id(void)
{
    return (uint32_t)syscall(SYS_gettid);
}

static struct stack *stack_of(nvtxDomainHandle_t domain, int create)
{
    for (int i = 0; i < n_stacks; ++i)
        if (stacks[i].domain == domain)
            return &stacks[i];
    if (!create || n_stacks == MAX_STACKS)
        return NULL;
    stacks[n_stacks] = (struct stack){.domain = domain};
    return &stacks[n_stacks++];
}

/* The range's index in kept.ranges, or NOT_KEPT. */
static size_t keep(const char *name, int depth, uint64_t now)
{
    size_t index = NOT_KEPT;
    uint32_t thread = thread_id();
    pthread_mutex_lock(&kept.lock);
    if (!kept.stopped && grow_for_one_more((void **)&kept.ranges, kept.count, sizeof *kept.ranges) == 0) {
        index = kept.count++;
        struct kept_range *r = &kept.ranges[index];
        *r = (struct kept_range){.thread = thread, .depth = depth, .start_ns = now};
        snprintf(r->name, sizeof r->name, "%s", name);
    }
    kept.lost += index == NOT_KEPT && !kept.stopped;
    pthread_mutex_unlock(&kept.lock);
    return index;
}

static void count_lost(void)
{
    pthread_mutex_lock(&kept.lock);
    kept.lost += !kept.stopped;
    pthread_mutex_unlock(&kept.lock);
}

/* NVTX's answer: the level of the range pushed, from 0, or negative. */
static int push(nvtxDomainHandle_t domain, const char *name)
{
    uint64_t now = prof_activity_now();
    struct stack *s = stack_of(domain, 1);
    if (!s) {
        count_lost();
        return -1;
    }
    if (s->depth < MAX_DEPTH)
        s->kept[s->depth] = keep(name, s->depth, now);
    else
        count_lost();
    return s->depth++;
}

static int pop(nvtxDomainHandle_t domain)
{
    uint64_t now = prof_activity_now();
    struct stack *s = stack_of(domain, 0);
    if (!s || s->depth == 0)
        return -1;
    int level = --s->depth;
    if (level < MAX_DEPTH && s->kept[level] != NOT_KEPT) {
        pthread_mutex_lock(&kept.lock);
        if (!kept.stopped)
            kept.ranges[s->kept[level]].end_ns = now;
        pthread_mutex_unlock(&kept.lock);
    }
    return level;
}

/* A range's name: its ASCII or wide message; a registered string's text is not known here. */
static void message_of(const nvtxEventAttributes_t *a, char *name, size_t len)
{
    name[0] = '\0';
    if (a && a->messageType == NVTX_MESSAGE_TYPE_ASCII && a->message.ascii)
        snprintf(name, len, "%s", a->message.ascii);
    else if (a && a->messageType == NVTX_MESSAGE_TYPE_UNICODE && a->message.unicode &&
             snprintf(name, len, "%ls", a->message.unicode) < 0)
        name[0] = '\0'; /* a character the locale cannot write */
}

static int NVTX_API range_push_a(const char *message)
{
    return push(NULL, message ? message : "");
}

static int NVTX_API range_push_ex(const nvtxEventAttributes_t *attributes)
{
    char name[KEPT_RANGE_NAME_LEN];
    message_of(attributes, name, sizeof name);
    return push(NULL, name);
}

static int NVTX_API range_pop(void)
{
    return pop(NULL);
}

static int NVTX_API domain_range_push_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t *attributes)
{
    char name[KEPT_RANGE_NAME_LEN];
    message_of(attributes, name, sizeof name);
    return push(domain, name);
}

static int NVTX_API domain_range_pop(nvtxDomainHandle_t domain)
{
    return pop(domain);
}

static nvtxDomainHandle_t new_domain(void)
{
    pthread_mutex_lock(&kept.lock);
    int slot = kept.n_domains < MAX_DOMAINS ? kept.n_domains++ : MAX_DOMAINS - 1;
    pthread_mutex_unlock(&kept.lock);
    domains[slot].slot = slot;
    return &domains[slot];
}

static nvtxDomainHandle_t NVTX_API domain_create_a(const char *name)
{
    (void)name;
    return new_domain();
}

static nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t *name)
{
    (void)name;
    return new_domain();
}

static const struct {
    NvtxCallbackModule module;
    unsigned id;
    NvtxFunctionPointer function;
} hooks[] = {
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushA, (NvtxFunctionPointer)range_push_a},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushEx, (NvtxFunctionPointer)range_push_ex},
    {NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePop, (NvtxFunctionPointer)range_pop},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, (NvtxFunctionPointer)domain_range_push_ex},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, (NvtxFunctionPointer)domain_range_pop},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainCreateA, (NvtxFunctionPointer)domain_create_a},
    {NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainCreateW, (NvtxFunctionPointer)domain_create_w},
};

/* Puts our functions in one NVTX instance's tables; 0 when it offers no table we need. */
static int hook_tables(const NvtxExportTableCallbacks *callbacks)
{
    for (size_t i = 0; i < sizeof hooks / sizeof hooks[0]; ++i) {
        NvtxFunctionTable table = NULL;
        unsigned size = 0;
        if (!callbacks->GetModuleFunctionTable(hooks[i].module, &table, &size) || hooks[i].id >= size ||
            !table[hooks[i].id])
            return 0;
        *table[hooks[i].id] = hooks[i].function;
    }
    return 1;
}

/* MEMSCOPE_INJECT_SELFTEST: the kept ranges, a line each, for tests that have no CUDA to start the library. */
static void write_selftest(void)
{
    size_t count, lost;
    const struct kept_range *ranges = nvtx_hook_stop(&count, &lost);
    FILE *f = fopen(getenv(INJECT_ENV_SELFTEST), "w");
    if (f) {
        for (size_t i = 0; i < count; ++i)
            fprintf(f, "%u %d %s %s\n", ranges[i].thread, ranges[i].depth, ranges[i].end_ns ? "closed" : "open",
                    ranges[i].name);
        fprintf(f, "lost %zu\n", lost);
        fclose(f);
    }
    nvtx_hook_free();
}

static void register_selftest(void)
{
    atexit(write_selftest);
}

/* Each copy of NVTX in the program (every library that includes its headers has one) calls this once. */
EXPORTED int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
    static pthread_once_t selftest_once = PTHREAD_ONCE_INIT;
    const NvtxExportTableCallbacks *callbacks = get_export_table(NVTX_ETID_CALLBACKS);
    const NvtxExportTableVersionInfo *version = get_export_table(NVTX_ETID_VERSIONINFO);
    if (!callbacks || callbacks->struct_size < sizeof *callbacks || !hook_tables(callbacks))
        return 0; /* NVTX then makes every call a no-op: the program runs on, without its ranges */
    if (version && version->struct_size >= sizeof *version && version->SetInjectionNvtxVersion)
        version->SetInjectionNvtxVersion(NVTX_VERSION);
    if (getenv(INJECT_ENV_SELFTEST))
        pthread_once(&selftest_once, register_selftest);
    return 1;
}

static int by_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Kept ranges are numbered in push order, so sorting the open ones' numbers orders them outer to inner across
 * the thread's domains, as the placement at exit does by time. */
void nvtx_hook_current_path(char *path, size_t len)
{
    size_t open[MAX_STACKS * MAX_DEPTH], n_open = 0, used = 0;
    for (int i = 0; i < n_stacks; ++i)
        for (int d = 0; d < stacks[i].depth && d < MAX_DEPTH; ++d)
            if (stacks[i].kept[d] != NOT_KEPT)
                open[n_open++] = stacks[i].kept[d];
    qsort(open, n_open, sizeof *open, by_index);
    path[0] = '\0';
    pthread_mutex_lock(&kept.lock);
    for (size_t i = 0; i < n_open && !kept.stopped && used < len; ++i) {
        int written = snprintf(path + used, len - used, "%s%s", i ? "/" : "", kept.ranges[open[i]].name);
        used += written > 0 ? (size_t)written : 0;
    }
    pthread_mutex_unlock(&kept.lock);
}

const struct kept_range *nvtx_hook_stop(size_t *count, size_t *lost)
{
    pthread_mutex_lock(&kept.lock);
    kept.stopped = 1;
    *count = kept.count;
    *lost = kept.lost;
    pthread_mutex_unlock(&kept.lock);
    return kept.ranges;
}

void nvtx_hook_free(void)
{
    pthread_mutex_lock(&kept.lock);
    free(kept.ranges);
    kept.ranges = NULL;
    kept.count = 0;
    pthread_mutex_unlock(&kept.lock);
}
