/*
 * SASS opcodes by function and PC offset, read from a cubin by the CUDA
 * toolkit's disassembler (nvdisasm; $NVDISASM overrides where it is). CUPTI
 * maps an instruction to its line but does not name it.
 */
#ifndef MEMSCOPE_DISASSEMBLY_H
#define MEMSCOPE_DISASSEMBLY_H

#include <stddef.h>
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

/* Fails with a message when the disassembler cannot be run or reads nothing. */
int disassemble(const uint8_t *cubin, size_t size, struct disassembly *d, struct error *e);
/* The opcode at pc in function (mangled), or NULL. */
const char *disassembly_opcode(const struct disassembly *d, const char *function, uint32_t pc);
void disassembly_free(struct disassembly *d);

#endif
