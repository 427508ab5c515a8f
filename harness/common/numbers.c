#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "numbers.h"

int parse_long(const char *text, long lowest, long highest, long *value)
{
    char *end;
    if (!text)
        return -1;
    errno = 0;
    long parsed = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || parsed < lowest || parsed > highest)
        return -1;
    *value = parsed;
    return 0;
}

int parse_real(const char *text, double lowest, double highest, double *value)
{
    char *end;
    if (!text)
        return -1;
    errno = 0;
    double parsed = strtod(text, &end);
    if (errno == ERANGE || end == text || *end != '\0' || !isfinite(parsed) || parsed < lowest || parsed > highest)
        return -1;
    *value = parsed;
    return 0;
}
