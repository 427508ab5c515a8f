#include <stdarg.h>
#include <stdio.h>

#include "error.h"

int error_set(struct error *e, int code, const char *fmt, ...)
{
    if (e->code != EXIT_OK)
        return e->code;
    e->code = code;
    va_list args;
    va_start(args, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, args);
    va_end(args);
    return code;
}
