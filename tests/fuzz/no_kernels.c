/* The fuzz build links the variant registry without the CUDA kernels: cli_parse reads names from the registry and
 * launches nothing, so each launcher is a stub that refuses, and each kernel accessor names no kernel. */
#include "../../kernels/matmul.h"

#define NO_LAUNCHER(name)                                                                                            \
    const char *name(const struct matmul_operands *ops, dim3 grid, dim3 block)                                       \
    {                                                                                                                \
        (void)ops;                                                                                                   \
        (void)grid;                                                                                                  \
        (void)block;                                                                                                 \
        return "no kernels in the fuzz build";                                                                       \
    }
#define NO_KERNEL(name)                                                                                              \
    NO_LAUNCHER(name)                                                                                                \
    const void *name##_kernel(size_t *dynamic_smem_bytes)                                                            \
    {                                                                                                                \
        *dynamic_smem_bytes = 0;                                                                                     \
        return NULL;                                                                                                 \
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
NO_KERNEL(matmul_blocktiled_1d)
NO_KERNEL(matmul_vectorized)
NO_KERNEL(matmul_vectorized_padded)
NO_KERNEL(matmul_warptiled)
NO_KERNEL(matmul_pipelined)
NO_KERNEL(matmul_rasterized)
NO_KERNEL(matmul_large_tiles)
NO_KERNEL(matmul_halfwarp_lanes)
NO_KERNEL(matmul_icache_fit)
NO_LAUNCHER(matmul_cublas_sgemm)
NO_LAUNCHER(matmul_cublas_dgemm)
