#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/grow.h"
#include "disassembly.h"

#ifndef MEMSCOPE_NVDISASM
#define MEMSCOPE_NVDISASM "nvdisasm"
#endif

static int add(struct disassembly *d, const char *function, uint32_t pc, const char *opcode, struct error *e)
{
    if (grow_for_one_more((void **)&d->opcodes, d->n, sizeof *d->opcodes))
        return error_set(e, EXIT_RUNTIME, "out of host memory for %zu opcodes", d->n + 1);
    struct sass_opcode *o = &d->opcodes[d->n++];
    snprintf(o->function, sizeof o->function, "%s", function);
    o->pc = pc;
    snprintf(o->opcode, sizeof o->opcode, "%s", opcode);
    return 0;
}

/* Lines of interest: ".text.<function>:" opens a function; "/\*0110*\/  @!P0 STS [R5], R4 ;" is an instruction. */
static int parse_line(const char *text, char *function, size_t len, struct disassembly *d, struct error *e)
{
    unsigned pc;
    char first[64], second[64];
    int consumed = 0;
    if (strncmp(text, ".text.", 6) == 0 && text[strlen(text) - 2] == ':') {
        snprintf(function, len, "%.*s", (int)(strlen(text) - 8), text + 6);
        return 0;
    }
    const char *at = strstr(text, "/*");
    if (!function[0] || !at || sscanf(at, "/*%x*/ %63s%n", &pc, first, &consumed) != 2)
        return 0;
    const char *opcode = first;
    if (first[0] == '@' && sscanf(at + consumed, " %63s", second) == 1)
        opcode = second;
    char clean[SOURCE_OPCODE_LEN];
    snprintf(clean, sizeof clean, "%.*s", (int)strcspn(opcode, " ;"), opcode);
    return clean[0] ? add(d, function, pc, clean, e) : 0;
}

static int by_function_and_pc(const void *a, const void *b)
{
    const struct sass_opcode *x = a, *y = b;
    int names = strcmp(x->function, y->function);
    return names ? names : (x->pc > y->pc) - (x->pc < y->pc);
}

static int read_listing(FILE *listing, struct disassembly *d, struct error *e)
{
    char text[1024], function[SOURCE_FUNCTION_LEN] = "";
    while (!e->code && fgets(text, sizeof text, listing))
        if (strchr(text, '\n'))
            parse_line(text, function, sizeof function, d, e);
    return e->code;
}

static int write_temporary(const uint8_t *cubin, size_t size, char *path, struct error *e)
{
    int fd = mkstemp(path);
    if (fd < 0)
        return error_set(e, EXIT_RUNTIME, "cannot create %s: %s", path, strerror(errno));
    FILE *f = fdopen(fd, "wb");
    if (!f)
        close(fd);
    int ok = f && fwrite(cubin, 1, size, f) == size;
    if (!f || fclose(f) != 0 || !ok) {
        unlink(path);
        return error_set(e, EXIT_RUNTIME, "cannot write the cubin to %s", path);
    }
    return 0;
}

static const char *tool(void)
{
    return getenv("NVDISASM") ? getenv("NVDISASM") : MEMSCOPE_NVDISASM;
}

int disassembly_start(const uint8_t *cubin, size_t size, struct disassembly_job *job, struct error *e)
{
    char command[512];
    snprintf(job->path, sizeof job->path, "/tmp/memscope-cubin-XXXXXX");
    job->listing = NULL;
    if (write_temporary(cubin, size, job->path, e))
        return e->code;
    /* niced: it starts while the metric passes' host work runs, and must not slow it */
    snprintf(command, sizeof command, "exec nice -n 19 '%s' -c '%s' 2>/dev/null", tool(), job->path);
    job->listing = popen(command, "r");
    if (!job->listing) {
        unlink(job->path);
        return error_set(e, EXIT_RUNTIME, "cannot run %s: %s", tool(), strerror(errno));
    }
    return 0;
}

int disassembly_finish(struct disassembly_job *job, struct disassembly *d, struct error *e)
{
    memset(d, 0, sizeof *d);
    read_listing(job->listing, d, e);
    if (pclose(job->listing) != 0 && !e->code)
        error_set(e, EXIT_RUNTIME, "%s failed on a cubin (set NVDISASM to the CUDA toolkit's nvdisasm)", tool());
    else if (d->n == 0 && !e->code)
        error_set(e, EXIT_RUNTIME, "%s listed no instruction", tool());
    unlink(job->path);
    job->listing = NULL;
    if (e->code)
        disassembly_free(d);
    else /* a library's cubin lists hundreds of thousands of instructions: looked up by bisection */
        qsort(d->opcodes, d->n, sizeof *d->opcodes, by_function_and_pc);
    return e->code;
}

int disassemble(const uint8_t *cubin, size_t size, struct disassembly *d, struct error *e)
{
    struct disassembly_job job;
    memset(d, 0, sizeof *d);
    return disassembly_start(cubin, size, &job, e) || disassembly_finish(&job, d, e);
}

/* A little-endian field of an ELF64 image, or 0 past its end. */
static uint64_t field(const uint8_t *image, size_t size, size_t at, int bytes)
{
    uint64_t value = 0;
    if (at > size || (size_t)bytes > size - at)
        return 0;
    for (int i = bytes - 1; i >= 0; --i)
        value = value << 8 | image[at + (size_t)i];
    return value;
}

bool cubin_has_lines(const uint8_t *cubin, size_t size)
{
    static const char wanted[] = ".debug_line";
    if (size < 64 || memcmp(cubin, "\x7f" "ELF", 4) != 0 || cubin[4] != 2) /* ELF64, as every cubin is */
        return false;
    uint64_t sections = field(cubin, size, 0x28, 8), entry = field(cubin, size, 0x3A, 2);
    uint64_t count = field(cubin, size, 0x3C, 2), names_index = field(cubin, size, 0x3E, 2);
    uint64_t names = field(cubin, size, sections + names_index * entry + 0x18, 8);
    for (uint64_t i = 0; entry && i < count; ++i) {
        uint64_t name = names + field(cubin, size, sections + i * entry, 4);
        if (name < size && size - name >= sizeof wanted && memcmp(cubin + name, wanted, sizeof wanted) == 0)
            return true;
    }
    return false;
}

const char *disassembly_opcode(const struct disassembly *d, const char *function, uint32_t pc)
{
    struct sass_opcode key = {.pc = pc};
    snprintf(key.function, sizeof key.function, "%s", function);
    const struct sass_opcode *found = bsearch(&key, d->opcodes, d->n, sizeof *d->opcodes, by_function_and_pc);
    return found ? found->opcode : NULL;
}

void disassembly_free(struct disassembly *d)
{
    free(d->opcodes);
    memset(d, 0, sizeof *d);
}
