/*
 * Placing the SASS metrics' records (cupti/sass_metrics.h) into a source capture: each instruction on its
 * function, PC, opcode, file and line, and the text of every line named. The suite's source group (collect.c) and
 * a program's source run (inject/patching.c) place alike. Runs no GPU: the modules' cubins are those the process's
 * CUPTI subscriber kept, the opcodes come from the toolkit's nvdisasm (disassembly.h), once per module.
 */
#ifndef MEMSCOPE_SOURCE_PLACEMENT_H
#define MEMSCOPE_SOURCE_PLACEMENT_H

#include <stdbool.h>

#include "../../cupti/sass_metrics.h"
#include "../common/error.h"
#include "../results/source_capture.h"
#include "disassembly.h"
#include "locate.h"

#define SOURCE_MAX_MODULES 64

struct source_placer {
    struct line_locator locator;
    int n_modules;
    struct {
        uint32_t crc;
        bool started; /* its disassembly runs: the listing is read when an instruction of it is named */
        struct disassembly_job job;
        struct disassembly listing;
    } modules[SOURCE_MAX_MODULES];
};

void source_placer_init(struct source_placer *p);
/* Every module loaded so far whose instructions can be placed (they have lines) starts its disassembly, side by
 * side: each costs the disassembler's start-up (about half a second), paid once for them all. */
void source_placer_start_listings(struct source_placer *p);
/* The record as an instruction of call, its line's text added to capture; function: the kernel's mangled name
 * whole (the record's may be cut short: sass_metrics.h), by which its cubin names it. An instruction of a module
 * without lines (cuBLAS's) keeps file "", line 0 and opcode "?": disassembling those cubins would take many
 * seconds. */
int source_place(struct source_placer *p, const struct prof_sass_record *r, const char *function,
                 struct source_capture *capture, struct source_call *call, struct error *e);
void source_placer_free(struct source_placer *p);

#endif
