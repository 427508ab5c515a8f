#include "launch.h"

struct product_shape job_key(struct matmul_shape shape)
{
    return (struct product_shape){shape.rows, shape.cols, shape.inner};
}

const char *job_size_label(struct matmul_shape shape, char out[PRODUCT_SHAPE_LEN])
{
    return product_shape_label(job_key(shape), out);
}

int launch_or_refuse(const struct matmul_variant *v, const struct matmul_operands *ops, const char **refused,
                     struct error *e)
{
    const char *why = v->launch(ops, matmul_grid(v, ops->shape), matmul_block(v));
    *refused = matmul_refusal(why);
    char label[PRODUCT_SHAPE_LEN];
    if (why && !*refused)
        return error_set(e, EXIT_RUNTIME, "launching %s at %s: %s", v->name, job_size_label(ops->shape, label), why);
    return 0;
}

int launch_variant(const struct matmul_variant *v, const struct matmul_operands *ops, struct error *e)
{
    const char *refused;
    if (launch_or_refuse(v, ops, &refused, e))
        return e->code;
    char label[PRODUCT_SHAPE_LEN];
    if (refused)
        return error_set(e, EXIT_RUNTIME, "launching %s at %s: %s%s", v->name, job_size_label(ops->shape, label),
                         MATMUL_REFUSED, refused);
    return 0;
}
