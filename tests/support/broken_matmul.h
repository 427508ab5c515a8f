#ifndef MEMSCOPE_BROKEN_MATMUL_H
#define MEMSCOPE_BROKEN_MATMUL_H

#include "../../kernels/matmul.h"

#ifdef __cplusplus
extern "C" {
#endif

const char *broken_skips_last_row(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *broken_one_wrong_element(const struct matmul_operands *ops, dim3 grid, dim3 block);

#ifdef __cplusplus
}
#endif

#endif
