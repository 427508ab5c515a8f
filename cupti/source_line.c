#include <stdio.h>
#include <stdlib.h>

#include <cupti_pcsampling.h>

#include "source_line.h"

int prof_source_line(const void *cubin, size_t size, const char *function, uint32_t pc, char *file,
                          size_t len, uint32_t *line, struct prof_error *e)
{
    CUpti_GetSassToSourceCorrelationParams p = {.size = CUpti_GetSassToSourceCorrelationParamsSize};
    p.cubin = cubin;
    p.cubinSize = size;
    p.functionName = function;
    p.pcOffset = pc;
    if (prof_check(e, cuptiGetSassToSourceCorrelation(&p), "cuptiGetSassToSourceCorrelation"))
        return e->status;
    const char *name = p.fileName ? p.fileName : "", *dir = p.dirName ? p.dirName : "";
    if (name[0] == '/' || !dir[0] || !name[0])
        snprintf(file, len, "%s", name);
    else
        snprintf(file, len, "%s/%s", dir, name);
    *line = p.lineNumber;
    free(p.fileName);
    free(p.dirName);
    return PROF_OK;
}
