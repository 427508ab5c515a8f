#include "launch.h"

int launch_variant(const struct matmul_variant *v, const struct matmul_operands *ops, struct error *e)
{
    const char *why = v->launch(ops, matmul_grid(v, ops->width), matmul_block(v));
    if (why)
        return error_set(e, EXIT_RUNTIME, "launching %s at W=%d: %s", v->name, ops->width, why);
    return 0;
}
