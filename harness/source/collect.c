#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/host_clock.h"
#include "collect.h"

int source_open(struct source_collector *c, struct gpu *g, struct error *e)
{
    struct prof_error pe = {0};
    const char *names[SASS_METRIC_COUNT];
    double started = host_seconds();
    memset(c, 0, sizeof *c);
    for (int m = 0; m < SASS_METRIC_COUNT; ++m)
        names[m] = sass_metric_name(m);
    line_locator_init(&c->locator);
    if (prof_chip_name(g->device, c->chip, sizeof c->chip, &pe) == 0)
        prof_sass_open(&c->sass, g->device, c->chip, names, SASS_METRIC_COUNT, &pe);
    c->setup_ms = 1e3 * (host_seconds() - started);
    return error_from_profiler(e, &pe);
}

int source_close(struct source_collector *c, struct error *e)
{
    struct prof_error pe = {0};
    if (c->sass.n_metrics)
        prof_sass_close(&c->sass, &pe);
    for (int i = 0; i < c->n_modules; ++i) {
        struct error ignored = {0}; /* a listing nothing asked for */
        if (c->modules[i].started)
            disassembly_finish(&c->modules[i].job, &c->modules[i].listing, &ignored);
        disassembly_free(&c->modules[i].listing);
    }
    memset(c, 0, sizeof *c);
    return error_from_profiler(e, &pe);
}

void source_start_listings(struct source_collector *c)
{
    for (size_t i = 0; i < prof_cubin_count() && c->n_modules < SOURCE_MAX_MODULES; ++i) {
        const struct prof_cubin *cubin = prof_cubin_at(i);
        struct error failed = {0}; /* said again when the listing is needed: disassembled then, alone */
        bool known = false;
        for (int m = 0; m < c->n_modules && !known; ++m)
            known = c->modules[m].crc == cubin->crc;
        if (known || !cubin_has_lines(cubin->image, cubin->size) ||
            disassembly_start(cubin->image, cubin->size, &c->modules[c->n_modules].job, &failed))
            continue;
        c->modules[c->n_modules].crc = cubin->crc;
        c->modules[c->n_modules++].started = true;
    }
}

static const struct disassembly *listing_of(struct source_collector *c, const struct prof_cubin *cubin,
                                            struct error *e)
{
    for (int i = 0; i < c->n_modules; ++i)
        if (c->modules[i].crc == cubin->crc) {
            if (c->modules[i].started) {
                c->modules[i].started = false;
                disassembly_finish(&c->modules[i].job, &c->modules[i].listing, e);
            }
            return e->code ? NULL : &c->modules[i].listing;
        }
    if (c->n_modules == SOURCE_MAX_MODULES) {
        error_set(e, EXIT_RUNTIME, "more than %d modules ran under the source group", SOURCE_MAX_MODULES);
        return NULL;
    }
    if (disassemble(cubin->image, cubin->size, &c->modules[c->n_modules].listing, e))
        return NULL;
    c->modules[c->n_modules].crc = cubin->crc;
    return &c->modules[c->n_modules++].listing;
}

static int place(struct source_collector *c, const struct prof_sass_record *r, struct source_capture *capture,
                 struct source_instruction *in, struct error *e)
{
    snprintf(in->function, sizeof in->function, "%s", r->function);
    in->pc = r->pc;
    memcpy(in->values, r->values, sizeof in->values);
    snprintf(in->opcode, sizeof in->opcode, "?");
    const struct prof_cubin *cubin = line_locate(&c->locator, r->cubin_crc, r->function, r->pc, in->file,
                                                 &in->line, e);
    if (!cubin || in->line == 0)
        return e->code; /* no opcode without lines: disassembling cuBLAS's cubins would take 20 s */
    const struct disassembly *listing = listing_of(c, cubin, e);
    const char *opcode = listing ? disassembly_opcode(listing, r->function, r->pc) : NULL;
    if (e->code)
        return e->code;
    if (opcode)
        snprintf(in->opcode, sizeof in->opcode, "%s", opcode);
    if (in->file[0] && !source_find_text(capture, in->file, in->line)) {
        char text[SOURCE_TEXT_LEN];
        source_line_text(in->file, in->line, text, sizeof text);
        return source_add_text(capture, in->file, in->line, text, e);
    }
    return 0;
}

static int patched_run(struct source_collector *c, struct gpu *g, const struct profiled_call *call,
                       struct prof_sass_record **records, size_t *n, double *gpu_ms, struct error *e)
{
    struct prof_error pe = {0};
    *gpu_ms = 0.0;
    if (prof_sass_begin(&c->sass, &pe))
        return error_from_profiler(e, &pe);
    profiled_call_timed(call, g, gpu_ms, e);
    prof_sass_end(&c->sass, records, n, &pe); /* even after a failed launch: patching must end */
    if (e->code || error_from_profiler(e, &pe))
        return e->code;
    if (*n == 0) /* every call runs a kernel: no record means the collection failed, not an empty kernel */
        return error_set(e, EXIT_PROFILER, "CUPTI's SASS metrics recorded no instruction of %s W=%d", call->variant,
                         call->width);
    return 0;
}

static int collect_call(struct source_collector *c, struct gpu *g, const struct profiled_call *call,
                        struct source_capture *capture, struct source_cost *cost, struct error *e)
{
    struct prof_sass_record *records = NULL;
    size_t n = 0;
    double started = host_seconds();
    if (capture->n_calls == SOURCE_MAX_CALLS)
        return error_set(e, EXIT_RUNTIME, "more than %d calls in one source capture", SOURCE_MAX_CALLS);
    struct source_call *out = &capture->calls[capture->n_calls++];
    snprintf(out->variant, sizeof out->variant, "%s", call->variant);
    snprintf(out->precision, sizeof out->precision, "%s", call->precision);
    out->width = call->width;
    if (patched_run(c, g, call, &records, &n, &cost->gpu_ms, e) == 0)
        for (size_t i = 0; i < n && !e->code; ++i) {
            struct source_instruction *in = source_add_instruction(out, e);
            if (in)
                place(c, &records[i], capture, in, e);
        }
    free(records);
    cost->wall_ms = 1e3 * (host_seconds() - started);
    return e->code;
}

int source_collect(struct source_collector *c, struct gpu *g, const struct profiled_call *calls, int n,
                   struct source_capture *capture, struct source_cost *cost, struct error *e)
{
    snprintf(capture->chip, sizeof capture->chip, "%s", c->chip);
    capture->metrics_named = SASS_METRIC_COUNT;
    source_start_listings(c);
    for (int i = 0; i < n && !e->code; ++i)
        collect_call(c, g, &calls[i], capture, &cost[i], e);
    return e->code;
}
