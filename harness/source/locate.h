/*
 * Placing an instruction, named as CUPTI names it (module CRC, function, PC
 * offset), on its source file and line, from the module's cubin kept by the
 * process's CUPTI subscriber (the kernels are built with -lineinfo). Both the
 * source group and the stall sampling place their records through here.
 */
#ifndef MEMSCOPE_LOCATE_H
#define MEMSCOPE_LOCATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../cupti/source_line.h"
#include "../../cupti/subscriber.h"
#include "../common/error.h"
#include "../results/source_capture.h"

struct line_locator {
    char cwd[SOURCE_FILE_LEN]; /* where memscope runs: source paths under it are written relative to it */
    uint32_t crc;              /* the function whose instructions are being placed */
    char function[PROF_FUNCTION_NAME_LEN];
    bool has_lines;
};

void line_locator_init(struct line_locator *l);
/* The instruction's module (NULL, with e set, when its cubin was not kept) and its file and line: "" and 0
 * for a function built without line information (cuBLAS). Instructions placed one after another should come
 * grouped by function: a function found without lines at its first instruction is not asked again. */
const struct prof_cubin *line_locate(struct line_locator *l, uint32_t crc, const char *function, uint32_t pc,
                                     char file[SOURCE_FILE_LEN], int *line, struct error *e);
/* The text of a line as the file holds it now, leading blanks removed; "" when the file cannot be read. */
void source_line_text(const char *file, int line, char *text, size_t len);

#endif
