#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "numbers.h"

enum number_reading parse_long(const char *text, long lowest, long highest, long *value)
{
    char *end;
    if (!text)
        return NUMBER_MALFORMED;
    errno = 0;
    long parsed = strtol(text, &end, 10);
    if (end == text || *end != '\0')
        return NUMBER_MALFORMED;
    /* Beyond a long, strtol gives LONG_MIN or LONG_MAX and ERANGE: past every limit a caller can set. */
    bool overflow = errno == ERANGE;
    if ((overflow && parsed == LONG_MIN) || parsed < lowest)
        return NUMBER_TOO_SMALL;
    if (overflow || parsed > highest)
        return NUMBER_TOO_LARGE;
    *value = parsed;
    return NUMBER_OK;
}

enum number_reading parse_real(const char *text, double lowest, double highest, double *value)
{
    char *end;
    if (!text)
        return NUMBER_MALFORMED;
    /* Beyond a double, strtod gives an infinity (ERANGE); nearer zero than a double holds, the nearest double it
     * has (ERANGE too): both are judged by their value, as any other number. */
    double parsed = strtod(text, &end);
    if (end == text || *end != '\0' || isnan(parsed))
        return NUMBER_MALFORMED;
    if (parsed < lowest || (isinf(parsed) && parsed < 0))
        return NUMBER_TOO_SMALL;
    if (parsed > highest || isinf(parsed))
        return NUMBER_TOO_LARGE;
    *value = parsed;
    return NUMBER_OK;
}
