#include <string.h>

#include "launch.h"

int launch_or_refuse(const struct matmul_variant *v, const struct matmul_operands *ops, const char **refused,
                     struct error *e)
{
    const char *why = v->launch(ops, matmul_grid(v, ops->width), matmul_block(v));
    const size_t prefix = strlen(MATMUL_REFUSED);
    *refused = why && strncmp(why, MATMUL_REFUSED, prefix) == 0 ? why + prefix : NULL;
    if (why && !*refused)
        return error_set(e, EXIT_RUNTIME, "launching %s at W=%d: %s", v->name, ops->width, why);
    return 0;
}

int launch_variant(const struct matmul_variant *v, const struct matmul_operands *ops, struct error *e)
{
    const char *refused;
    if (launch_or_refuse(v, ops, &refused, e))
        return e->code;
    if (refused)
        return error_set(e, EXIT_RUNTIME, "launching %s at W=%d: %s%s", v->name, ops->width, MATMUL_REFUSED, refused);
    return 0;
}
