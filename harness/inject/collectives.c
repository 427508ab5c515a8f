#include <string.h>

#include "collectives.h"

static int begins(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

const char *collective_reason(const char *kernel, const regex_t *user)
{
    const char *name = begins(kernel, "void ") ? kernel + strlen("void ") : kernel; /* a template's return type */
    if (begins(name, "ncclKernel") || begins(name, "ncclDevKernel"))
        return NOT_REPLAYED_NCCL;
    if (user && regexec(user, kernel, 0, NULL, 0) == 0)
        return NOT_REPLAYED_OPTION;
    return NULL;
}
