/* The GPU a run uses: device, stream, cuBLAS handle, timing events and the L2 flush buffer. */
#ifndef MEMSCOPE_GPU_H
#define MEMSCOPE_GPU_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "../common/error.h"

struct gpu {
    int device;
    struct cudaDeviceProp prop;
    cudaStream_t stream;
    cublasHandle_t cublas;
    cudaEvent_t start, stop;
    void *l2_flush;
    size_t l2_flush_bytes;
};

/* EXIT_NO_GPU when there is no driver, no GPU, or no device with that index. */
int gpu_open(struct gpu *g, int device, struct error *e);
int gpu_close(struct gpu *g, struct error *e);
int gpu_require_free_memory(const struct gpu *g, size_t bytes, const char *purpose, struct error *e);
/* Empties the L2 on g's stream (see kernels/cache_sweep.h): the next kernel starts cold and clean. */
int gpu_flush_l2(struct gpu *g, struct error *e);

#endif
