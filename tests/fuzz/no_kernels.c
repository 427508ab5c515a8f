/* The fuzz build links the variant registry without the CUDA kernels: cli_parse reads names from the registry and
 * launches nothing, so each row of the table (kernels/matmul_registry.h) gets a launcher that refuses and, for a
 * kernel row, an accessor that names no kernel. */
#include "../../kernels/matmul.h"

#define NO_LAUNCHER(launcher)                                                                                        \
    const char *launcher(const struct matmul_operands *ops, dim3 grid, dim3 block)                                   \
    {                                                                                                                \
        (void)ops;                                                                                                   \
        (void)grid;                                                                                                  \
        (void)block;                                                                                                 \
        return "no kernels in the fuzz build";                                                                       \
    }
#define NO_KERNEL_ROW(name, launcher, ...)                                                                           \
    NO_LAUNCHER(launcher)                                                                                            \
    const void *launcher##_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes, unsigned *threads)          \
    {                                                                                                                \
        (void)shape, (void)threads;                                                                                  \
        *dynamic_smem_bytes = 0;                                                                                     \
        return NULL;                                                                                                 \
    }
#define NO_LIBRARY_ROW(name, launcher, ...) NO_LAUNCHER(launcher)

MATMUL_VARIANTS(NO_KERNEL_ROW, NO_LIBRARY_ROW)
