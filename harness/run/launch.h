/* Launching a registered variant, with the launch checked. */
#ifndef MEMSCOPE_LAUNCH_H
#define MEMSCOPE_LAUNCH_H

#include "../../kernels/matmul.h"
#include "../common/error.h"
#include "../results/product_shape.h"

/* The key of the results rows of a product of this shape (harness/results/ knows no kernel's types). */
struct product_shape job_key(struct matmul_shape shape);
/* As the results, the run's messages and its NVTX ranges name it (product_shape_label): "W=4096", "8192x3072x1024". */
const char *job_size_label(struct matmul_shape shape, char out[PRODUCT_SHAPE_LEN]);

int launch_variant(const struct matmul_variant *v, const struct matmul_operands *ops, struct error *e);
/* The same, but a launcher's refusal of the width (a reason starting with MATMUL_REFUSED, matmul.h) is a result,
 * not an error: *refused is then the reason after that prefix, else NULL. */
int launch_or_refuse(const struct matmul_variant *v, const struct matmul_operands *ops, const char **refused,
                     struct error *e);

#endif
