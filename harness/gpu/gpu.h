/* The GPU a run uses: device, stream, cuBLAS handle, timing events and the L2 flush buffer. */
#ifndef MEMSCOPE_GPU_H
#define MEMSCOPE_GPU_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../common/error.h"

struct gpu {
    int device;
    struct cudaDeviceProp prop;
    cudaStream_t stream;
    cublasHandle_t cublas;
    cudaEvent_t start, stop;
    void *l2_flush;
    size_t l2_flush_bytes;
    double waited_s; /* for another run's turn on the GPU (gpu_lock.h) */
};

/* How a run takes its turn on a GPU that other memscope runs share (gpu_lock.h). */
struct gpu_turn {
    double wait_s;       /* at most, for another run to finish */
    const char *command; /* this run's, for a run that waits on it */
    FILE *log;           /* where the wait is announced */
};

/* EXIT_NO_GPU when there is no driver, no GPU, or no device with that index. With turn, the GPU's lock is taken
 * before the first CUDA context is made on it (EXIT_BUSY when the wait runs out); NULL takes none, for a caller
 * whose turn is taken by another (a test that runs memscope). */
int gpu_open(struct gpu *g, int device, const struct gpu_turn *turn, struct error *e);
int gpu_close(struct gpu *g, struct error *e);
/* The GPU's UUID as nvidia-smi writes it: GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx. */
void gpu_uuid_text(const struct gpu *g, char *buf, size_t len);
int gpu_require_free_memory(const struct gpu *g, size_t bytes, const char *purpose, struct error *e);
/* Whether bytes fit in the GPU's free memory with the same headroom gpu_require_free_memory keeps. */
int gpu_has_free_memory(size_t bytes, bool *fits, struct error *e);
/* Empties the L2 on g's stream (see kernels/cache_sweep.h): the next kernel starts cold and clean. */
int gpu_flush_l2(struct gpu *g, struct error *e);

#endif
