/* Shared by the kernel files: turn the state after a <<<>>> launch into a launcher's result, and name the
 * kernel a launcher starts. */
#ifndef MEMSCOPE_LAUNCH_STATUS_CUH
#define MEMSCOPE_LAUNCH_STATUS_CUH

#include <cuda_runtime.h>

static inline const char *launch_status(void)
{
    cudaError_t rc = cudaGetLastError();
    return rc == cudaSuccess ? NULL : cudaGetErrorString(rc);
}

/* The accessor a registry row names beside its launcher: the __global__ function it starts (at every shape) and the
 * dynamic shared memory it gives each block. */
#define MATMUL_KERNEL(accessor, kernel, dynamic_smem)                                                          \
    extern "C" const void *accessor(struct matmul_shape shape, size_t *dynamic_smem_bytes, unsigned *threads)  \
    {                                                                                                          \
        (void)shape, (void)threads;                                                                            \
        *dynamic_smem_bytes = (dynamic_smem);                                                                  \
        return (const void *)(kernel);                                                                         \
    }

#endif
