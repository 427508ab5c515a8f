/* generated_cuda_meta.h, the launch calls' parameter lists, also lists calls of CUDA's old API, whose types cuda.h
 * declares only for CUDA's own build; this file calls no driver function, so their declarations harm nothing. */
#define __CUDA_API_VERSION_INTERNAL 1
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_pcsampling.h>
#include <generated_cuda_meta.h>

#include "stream_capture.h"
#include "subscriber.h"

#define MAX_CUBINS 1024

/* One per process, as CUPTI allows; module loads come on the thread of the CUDA call that caused them, and
 * memscope makes its CUDA calls from one thread. */
static struct {
    CUpti_SubscriberHandle handle;
    prof_launch_listener listener;
    void *context;
    struct prof_launch last; /* the last launch entered while listening (its symbol not kept) */
    int launched;
    size_t n_cubins;
    struct prof_cubin cubins[MAX_CUBINS];
} subscriber;

static const CUpti_CallbackId launch_callbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

static void keep_cubin(const CUpti_ModuleResourceData *module)
{
    struct prof_cubin *c = &subscriber.cubins[subscriber.n_cubins];
    CUpti_GetCubinCrcParams crc = {.size = CUpti_GetCubinCrcParamsSize};
    if (!module->pCubin || module->cubinSize == 0)
        return;
    if (subscriber.n_cubins == MAX_CUBINS || !(c->image = malloc(module->cubinSize)))
        return; /* prof_cubin_find will not find it, and its caller fails */
    memcpy(c->image, module->pCubin, module->cubinSize);
    c->size = module->cubinSize;
    crc.cubin = c->image;
    crc.cubinSize = c->size;
    if (cuptiGetCubinCrc(&crc) != CUPTI_SUCCESS) {
        free(c->image);
        return;
    }
    c->crc = (uint32_t)crc.cubinCrc;
    subscriber.n_cubins++;
}

static int is_ex_launch(CUpti_CallbackId id)
{
    return id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx || id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz;
}

static int is_per_thread(CUpti_CallbackId id)
{
    return id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz || id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
           id == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
}

/* The plain and cooperative launches (and their _ptsz forms) share one layout of parameters; the Ex forms carry
 * a launch configuration. */
static struct prof_launch launch_of(CUpti_CallbackId id, const CUpti_CallbackData *call)
{
    struct prof_launch l = {.entering = call->callbackSite == CUPTI_API_ENTER,
                            .symbol = call->symbolName ? call->symbolName : "unknown",
                            .context = call->context,
                            .correlation = call->correlationId};
    if (is_ex_launch(id)) {
        const cuLaunchKernelEx_params *p = call->functionParams;
        const CUlaunchConfig *c = p->config;
        l.function = p->f;
        if (c)
            l = (struct prof_launch){l.entering, l.symbol, l.context, l.function, l.correlation,
                                     {c->gridDimX, c->gridDimY, c->gridDimZ},
                                     {c->blockDimX, c->blockDimY, c->blockDimZ}, c->sharedMemBytes, c->hStream};
    } else {
        const cuLaunchKernel_params *p = call->functionParams;
        l = (struct prof_launch){l.entering, l.symbol, l.context, p->f, l.correlation,
                                 {p->gridDimX, p->gridDimY, p->gridDimZ},
                                 {p->blockDimX, p->blockDimY, p->blockDimZ}, p->sharedMemBytes, p->hStream};
    }
    if (!l.stream && is_per_thread(id))
        l.stream = CU_STREAM_PER_THREAD;
    return l;
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *data)
{
    (void)userdata;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
        const CUpti_ResourceData *resource = data;
        keep_cubin(resource->resourceDescriptor);
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && prof_capture_call(id)) {
        prof_capture_note(id, data);
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && subscriber.listener) {
        struct prof_launch launch = launch_of(id, data);
        if (launch.entering) {
            subscriber.last = launch;
            subscriber.last.symbol = NULL; /* CUPTI's text, valid during the callback only */
            subscriber.launched = 1;
        }
        subscriber.listener(subscriber.context, &launch);
    }
}

int prof_subscriber_start(int keep_cubins, struct prof_error *e)
{
    if (subscriber.handle)
        return prof_fail(e, PROF_FAILED, "the CUPTI subscriber is already started");
    if (prof_check(e, cuptiSubscribe(&subscriber.handle, on_callback, NULL), "cuptiSubscribe"))
        return e->status;
    if (!keep_cubins)
        return PROF_OK;
    return prof_check(e, cuptiEnableCallback(1, subscriber.handle, CUPTI_CB_DOMAIN_RESOURCE,
                                             CUPTI_CBID_RESOURCE_MODULE_LOADED),
                      "cuptiEnableCallback (module loaded)");
}

static int enable_callbacks(const CUpti_CallbackId *ids, size_t n, bool on, const char *what, struct prof_error *e)
{
    for (size_t i = 0; i < n; ++i)
        if (prof_check(e, cuptiEnableCallback(on, subscriber.handle, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]), what))
            return e->status;
    return PROF_OK;
}

int prof_subscriber_listen(prof_launch_listener listener, void *context, struct prof_error *e)
{
    const CUpti_CallbackId *captures;
    size_t n_captures = prof_capture_calls(&captures);
    if (!subscriber.handle)
        return prof_fail(e, PROF_FAILED, "the CUPTI subscriber is not started");
    subscriber.listener = listener;
    subscriber.context = context;
    if (enable_callbacks(launch_callbacks, sizeof launch_callbacks / sizeof launch_callbacks[0], listener != NULL,
                         "cuptiEnableCallback (launches)", e))
        return e->status;
    return enable_callbacks(captures, n_captures, listener != NULL, "cuptiEnableCallback (stream captures)", e);
}

int prof_last_launch(struct prof_launch *out)
{
    int seen = subscriber.launched;
    if (seen)
        *out = subscriber.last;
    subscriber.launched = 0; /* taken: a later launch the listener did not see is not answered with this one */
    return seen;
}

int prof_subscriber_stop(struct prof_error *e)
{
    if (subscriber.handle)
        prof_check(e, cuptiUnsubscribe(subscriber.handle), "cuptiUnsubscribe");
    for (size_t i = 0; i < subscriber.n_cubins; ++i)
        free(subscriber.cubins[i].image);
    memset(&subscriber, 0, sizeof subscriber);
    return e->status;
}

size_t prof_cubin_count(void)
{
    return subscriber.n_cubins;
}

const struct prof_cubin *prof_cubin_at(size_t i)
{
    return i < subscriber.n_cubins ? &subscriber.cubins[i] : NULL;
}

const struct prof_cubin *prof_cubin_find(uint32_t crc)
{
    for (size_t i = 0; i < subscriber.n_cubins; ++i)
        if (subscriber.cubins[i].crc == crc)
            return &subscriber.cubins[i];
    return NULL;
}
