#include <limits.h>
#include <stdlib.h>

#include "../common/numbers.h"
#include "rank.h"

#define RANK_NAME(name) name,
static const char *const variables[] = {RANK_VARIABLES(RANK_NAME)};

void process_rank_read(struct process_rank *r)
{
    *r = (struct process_rank){-1, NULL};
    for (size_t i = 0; i < sizeof variables / sizeof variables[0]; ++i) {
        const char *text = getenv(variables[i]);
        long rank;
        if (text && parse_long(text, 0, LONG_MAX, &rank) == NUMBER_OK) {
            *r = (struct process_rank){rank, variables[i]};
            return;
        }
    }
}
