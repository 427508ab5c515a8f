/* Launching a registered variant, with the launch checked. */
#ifndef MEMSCOPE_LAUNCH_H
#define MEMSCOPE_LAUNCH_H

#include "../../kernels/matmul.h"
#include "../common/error.h"

int launch_variant(const struct matmul_variant *v, const struct matmul_operands *ops, struct error *e);
/* The same, but a launcher's refusal of the width (a reason starting with MATMUL_REFUSED, matmul.h) is a result,
 * not an error: *refused is then the reason after that prefix, else NULL. */
int launch_or_refuse(const struct matmul_variant *v, const struct matmul_operands *ops, const char **refused,
                     struct error *e);

#endif
