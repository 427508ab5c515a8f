#include <string.h>

#include "../results/job_name.h"
#include "collectives.h"

const char *collective_reason(const char *kernel, const regex_t *user)
{
    if (job_kernel_is_nccl(kernel))
        return NOT_REPLAYED_NCCL;
    if (user && regexec(user, kernel, 0, NULL, 0) == 0)
        return NOT_REPLAYED_OPTION;
    return NULL;
}
