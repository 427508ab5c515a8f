#include <stdio.h>
#include <string.h>

#include "placement.h"

void source_placer_init(struct source_placer *p)
{
    memset(p, 0, sizeof *p);
    line_locator_init(&p->locator);
}

void source_placer_start_listings(struct source_placer *p)
{
    for (size_t i = 0; i < prof_cubin_count() && p->n_modules < SOURCE_MAX_MODULES; ++i) {
        const struct prof_cubin *cubin = prof_cubin_at(i);
        struct error failed = {0}; /* said again when the listing is needed: disassembled then, alone */
        bool known = false;
        for (int m = 0; m < p->n_modules && !known; ++m)
            known = p->modules[m].crc == cubin->crc;
        if (known || !cubin_has_lines(cubin->image, cubin->size) ||
            disassembly_start(cubin->image, cubin->size, &p->modules[p->n_modules].job, &failed))
            continue;
        p->modules[p->n_modules].crc = cubin->crc;
        p->modules[p->n_modules++].started = true;
    }
}

static const struct disassembly *listing_of(struct source_placer *p, const struct prof_cubin *cubin,
                                            struct error *e)
{
    for (int i = 0; i < p->n_modules; ++i)
        if (p->modules[i].crc == cubin->crc) {
            if (p->modules[i].started) {
                p->modules[i].started = false;
                disassembly_finish(&p->modules[i].job, &p->modules[i].listing, e);
            }
            return e->code ? NULL : &p->modules[i].listing;
        }
    if (p->n_modules == SOURCE_MAX_MODULES) {
        error_set(e, EXIT_RUNTIME, "more than %d modules ran under the source group", SOURCE_MAX_MODULES);
        return NULL;
    }
    if (disassemble(cubin->image, cubin->size, &p->modules[p->n_modules].listing, e))
        return NULL;
    p->modules[p->n_modules].crc = cubin->crc;
    return &p->modules[p->n_modules++].listing;
}

int source_place(struct source_placer *p, const struct prof_sass_record *r, const char *function,
                 struct source_capture *capture, struct source_call *call, struct error *e)
{
    struct source_instruction *in = source_add_instruction(call, e);
    if (!in)
        return e->code;
    snprintf(in->function, sizeof in->function, "%s", r->function);
    in->pc = r->pc;
    memcpy(in->values, r->values, sizeof in->values);
    snprintf(in->opcode, sizeof in->opcode, "?");
    const struct prof_cubin *cubin = line_locate(&p->locator, r->cubin_crc, function, r->pc, in->file, &in->line,
                                                 e);
    if (!cubin || in->line == 0)
        return e->code;
    const struct disassembly *listing = listing_of(p, cubin, e);
    const char *opcode = listing ? disassembly_opcode(listing, function, r->pc) : NULL;
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

void source_placer_free(struct source_placer *p)
{
    for (int i = 0; i < p->n_modules; ++i) {
        struct error ignored = {0}; /* a listing nothing asked for */
        if (p->modules[i].started)
            disassembly_finish(&p->modules[i].job, &p->modules[i].listing, &ignored);
        disassembly_free(&p->modules[i].listing);
    }
    memset(p, 0, sizeof *p);
}
