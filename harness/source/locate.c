#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../cupti/source_line.h"
#include "locate.h"

void line_locator_init(struct line_locator *l)
{
    memset(l, 0, sizeof *l);
    if (!getcwd(l->cwd, sizeof l->cwd))
        l->cwd[0] = '\0'; /* paths then stay as the compiler recorded them */
}

/* Paths under the folder memscope runs in (the repository, for `make run`) are kept relative to it, so
 * that a capture names kernels/lessons/matmul_tiled.cu wherever the repository was cloned. */
static void relative_to(const char *cwd, char *path)
{
    size_t len = strlen(cwd);
    if (len == 0 || strncmp(path, cwd, len) != 0 || path[len] != '/')
        return;
    memmove(path, path + len + 1, strlen(path + len + 1) + 1);
}

const struct prof_cubin *line_locate(struct line_locator *l, uint32_t crc, const char *function, uint32_t pc,
                                     char file[SOURCE_FILE_LEN], int *line, struct error *e)
{
    struct prof_error pe = {0};
    uint32_t found = 0;
    const struct prof_cubin *cubin = prof_cubin_find(crc);
    file[0] = '\0';
    *line = 0;
    if (!cubin) { /* lines that silently read "no line information" would look like a library's */
        error_set(e, EXIT_PROFILER,
                  "no cubin for the module of %s (CRC %08x): it was loaded before memscope could see it "
                  "(CUDA_MODULE_LOADING=EAGER?), or could not be kept",
                  function, crc);
        return NULL;
    }
    /* A function without line information fails at every PC, and each try parses the cubin again */
    bool first = l->crc != crc || strcmp(l->function, function) != 0;
    if (first) {
        l->crc = crc;
        snprintf(l->function, sizeof l->function, "%s", function);
        l->has_lines = true;
    } else if (!l->has_lines) {
        return cubin;
    }
    if (prof_source_line(cubin->image, cubin->size, function, pc, file, SOURCE_FILE_LEN, &found, &pe)) {
        l->has_lines = !first;
        file[0] = '\0';
        return cubin;
    }
    *line = (int)found;
    relative_to(l->cwd, file);
    return cubin;
}

void source_line_text(const char *file, int line, char *text, size_t len)
{
    char buffer[4096];
    FILE *f = file[0] ? fopen(file, "r") : NULL;
    text[0] = '\0';
    if (!f)
        return;
    for (int n = 1; fgets(buffer, sizeof buffer, f); n += strchr(buffer, '\n') != NULL)
        if (n == line) {
            buffer[strcspn(buffer, "\n")] = '\0';
            snprintf(text, len, "%s", buffer + strspn(buffer, " \t"));
            break;
        }
    fclose(f);
}
