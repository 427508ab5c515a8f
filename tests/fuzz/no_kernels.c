/* The fuzz build links the variant registry without the CUDA kernels: cli_parse reads names from the registry and
 * launches nothing, so each launcher is a stub that refuses. */
#include "../../kernels/matmul.h"

#define NO_KERNEL(name)                                                                                              \
    const char *name(const struct matmul_operands *ops, dim3 grid, dim3 block)                                       \
    {                                                                                                                \
        (void)ops;                                                                                                   \
        (void)grid;                                                                                                  \
        (void)block;                                                                                                 \
        return "no kernels in the fuzz build";                                                                       \
    }

NO_KERNEL(matmul_naive_fp32)
NO_KERNEL(matmul_naive_fp64)
NO_KERNEL(matmul_naive_uncoalesced)
NO_KERNEL(matmul_tiled_16)
NO_KERNEL(matmul_tiled_32)
NO_KERNEL(matmul_tiled_32_fp64)
NO_KERNEL(matmul_tiled_corner_turning)
NO_KERNEL(matmul_tiled_transposed)
NO_KERNEL(matmul_tiled_transposed_padded)
NO_KERNEL(matmul_colmajor_padded_fp64)
NO_KERNEL(matmul_blocktiled_2d)
NO_KERNEL(matmul_cublas_sgemm)
NO_KERNEL(matmul_cublas_dgemm)
