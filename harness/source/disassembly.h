/*
 * SASS opcodes by function and PC offset, read from a cubin by the CUDA
 * toolkit's disassembler (nvdisasm; $NVDISASM overrides where it is). CUPTI
 * maps an instruction to its line but does not name it.
 */
#ifndef MEMSCOPE_DISASSEMBLY_H
#define MEMSCOPE_DISASSEMBLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "../common/error.h"
#include "../results/source_capture.h"

struct sass_opcode {
    char function[SOURCE_FUNCTION_LEN];
    uint32_t pc;
    char opcode[SOURCE_OPCODE_LEN];
};

struct disassembly {
    size_t n;
    struct sass_opcode *opcodes;
};

/* A disassembly under way: the disassembler started on a cubin, its listing not yet read. Its start-up costs
 * about as much whatever the cubin's size (docs/metrics.md has the figures), so the cubins to be read are
 * started side by side and their listings read when needed. */
struct disassembly_job {
    FILE *listing;
    char path[32]; /* the cubin, written to a temporary file for the disassembler */
};

/* Fails with a message when the disassembler cannot be run or reads nothing. */
int disassemble(const uint8_t *cubin, size_t size, struct disassembly *d, struct error *e);
int disassembly_start(const uint8_t *cubin, size_t size, struct disassembly_job *job, struct error *e);
/* Reads the job's listing into d (d is empty on failure); the job is over either way. */
int disassembly_finish(struct disassembly_job *job, struct disassembly *d, struct error *e);
/* Whether the cubin has line information (-lineinfo: a .debug_line section), without which no instruction of
 * it is placed and none is named. */
bool cubin_has_lines(const uint8_t *cubin, size_t size);
/* The opcode at pc in function (mangled), or NULL. */
const char *disassembly_opcode(const struct disassembly *d, const char *function, uint32_t pc);
void disassembly_free(struct disassembly *d);

#endif
