/*
 * An instruction, named as CUPTI's SASS metrics and PC samples name it
 * (function and PC offset in a module), placed on its source file and line by
 * CUPTI's SASS-to-source correlation. It needs only the module's cubin (built
 * with -lineinfo), no GPU and no context.
 */
#ifndef MEMSCOPE_SOURCE_LINE_H
#define MEMSCOPE_SOURCE_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "profiler_error.h"

/* Room for a function's mangled name as CUPTI's records give it: PyTorch's run past 1,000 characters. */
#define PROF_FUNCTION_NAME_LEN 4096

/* The source file (its path when compiled, with the compiler's folder when relative) and line of the
 * instruction at pc in function. */
int prof_source_line(const void *cubin, size_t size, const char *function, uint32_t pc, char *file, size_t len,
                     uint32_t *line, struct prof_error *e);

#endif
