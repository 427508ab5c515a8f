/* Launching a registered variant, with the launch checked. */
#ifndef MEMSCOPE_LAUNCH_H
#define MEMSCOPE_LAUNCH_H

#include "../../kernels/matmul.h"
#include "../common/error.h"

int launch_variant(const struct matmul_variant *v, const struct matmul_operands *ops, struct error *e);

#endif
