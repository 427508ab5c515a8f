#include <stdlib.h>

#include "grow.h"

int grow_for_one_more(void **items, size_t count, size_t size)
{
    if ((count & (count - 1)) != 0) /* not a power of two: the last doubling left room */
        return 0;
    void *grown = realloc(*items, (count ? 2 * count : 1) * size);
    if (!grown)
        return -1;
    *items = grown;
    return 0;
}
