#include "launch.h"

int launch_or_refuse(const struct matmul_variant *v, const struct matmul_operands *ops, const char **refused,
                     struct error *e)
{
    const char *why = v->launch(ops, matmul_grid(v, ops->shape), matmul_block(v));
    *refused = matmul_refusal(why);
    char label[MATMUL_SHAPE_LABEL];
    if (why && !*refused)
        return error_set(e, EXIT_RUNTIME, "launching %s at %s: %s", v->name, matmul_shape_label(ops->shape, label),
                         why);
    return 0;
}

int launch_variant(const struct matmul_variant *v, const struct matmul_operands *ops, struct error *e)
{
    const char *refused;
    if (launch_or_refuse(v, ops, &refused, e))
        return e->code;
    char label[MATMUL_SHAPE_LABEL];
    if (refused)
        return error_set(e, EXIT_RUNTIME, "launching %s at %s: %s%s", v->name, matmul_shape_label(ops->shape, label),
                         MATMUL_REFUSED, refused);
    return 0;
}
