#include <string.h>

#include "../../kernels/cache_sweep.h"
#include "../../kernels/matmul.h"
#include "gpu.h"
#include "gpu_lock.h"
#include "nvml_probe.h"

/* cuBLAS and the runtime need some memory of their own beyond our buffers. */
#define MEMORY_HEADROOM ((size_t)256 << 20)

static int find_device(int device, struct error *e)
{
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc == cudaErrorInsufficientDriver)
        return error_set(e, EXIT_NO_GPU, "no usable CUDA GPU: no NVIDIA driver was found, or it is older than "
                                         "this CUDA %d.%d runtime needs (%s)",
                         CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10, cudaGetErrorString(rc));
    if (rc != cudaSuccess)
        return error_set(e, EXIT_NO_GPU, "no usable CUDA GPU: %s", cudaGetErrorString(rc));
    if (count == 0)
        return error_set(e, EXIT_NO_GPU, "no CUDA GPU found");
    if (device >= count)
        return error_set(e, EXIT_NO_GPU, "--device %d: this machine has %d GPU(s), numbered from 0", device, count);
    return 0;
}

void gpu_uuid_text(const struct gpu *g, char *buf, size_t len)
{
    gpu_lock_key((const unsigned char *)g->prop.uuid.bytes, buf, len);
}

static int take_turn(struct gpu *g, const struct gpu_turn *turn, struct error *e)
{
    char uuid[64];
    gpu_uuid_text(g, uuid, sizeof uuid);
    return gpu_lock_take(gpu_lock_folder(), uuid, turn->command, turn->wait_s, turn->log, &g->waited_s, e);
}

int gpu_open(struct gpu *g, int device, const struct gpu_turn *turn, struct error *e)
{
    memset(g, 0, sizeof *g);
    g->device = device;
    if (find_device(device, e))
        return e->code;
    /* The properties need no context: the lock is taken before this run puts one on the GPU. */
    CUDA_TRY(e, cudaGetDeviceProperties(&g->prop, device));
    if (turn && take_turn(g, turn, e))
        return e->code;
    CUDA_TRY(e, cudaSetDevice(device));
    char bus_id[32];
    CUDA_TRY(e, cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device));
    gpu_watch_start(bus_id); /* once this process's context exists, so that NVML lists it */
    CUDA_TRY(e, cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
    CUDA_TRY(e, cudaEventCreate(&g->start));
    CUDA_TRY(e, cudaEventCreate(&g->stop));
    CUBLAS_TRY(e, cublasCreate(&g->cublas));
    CUBLAS_TRY(e, cublasSetStream(g->cublas, g->stream));
    const char *why = matmul_cublas_configure(g->cublas);
    if (why)
        return error_set(e, EXIT_RUNTIME, "configuring cuBLAS: %s", why);
    g->l2_flush_bytes = 4 * (size_t)g->prop.l2CacheSize; /* a margin: L2 hashing and associativity give no guarantee at 1x */
    CUDA_TRY(e, cudaMalloc(&g->l2_flush, g->l2_flush_bytes + sizeof(int)));
    /* On the work stream: it does not wait for the legacy default stream, where a plain memset would run. */
    CUDA_TRY(e, cudaMemsetAsync(g->l2_flush, 0, g->l2_flush_bytes + sizeof(int), g->stream));
    CUDA_TRY(e, cudaStreamSynchronize(g->stream));
    return 0;
}

int gpu_close(struct gpu *g, struct error *e)
{
    if (g->l2_flush)
        CUDA_RELEASE(e, cudaFree(g->l2_flush));
    if (g->cublas && cublasDestroy(g->cublas) != CUBLAS_STATUS_SUCCESS)
        error_set(e, EXIT_RUNTIME, "cublasDestroy failed");
    if (g->start)
        CUDA_RELEASE(e, cudaEventDestroy(g->start));
    if (g->stop)
        CUDA_RELEASE(e, cudaEventDestroy(g->stop));
    if (g->stream)
        CUDA_RELEASE(e, cudaStreamDestroy(g->stream));
    gpu_watch_stop();
    gpu_lock_release();
    memset(g, 0, sizeof *g);
    return e->code;
}

static int free_memory(size_t *free_bytes, struct error *e)
{
    size_t total_bytes;
    CUDA_TRY(e, cudaMemGetInfo(free_bytes, &total_bytes));
    return 0;
}

static bool fits_with_headroom(size_t bytes, size_t free_bytes)
{
    return bytes + MEMORY_HEADROOM <= free_bytes;
}

int gpu_has_free_memory(size_t bytes, bool *fits, struct error *e)
{
    size_t free_bytes;
    if (free_memory(&free_bytes, e))
        return e->code;
    *fits = fits_with_headroom(bytes, free_bytes);
    return 0;
}

int gpu_require_free_memory(const struct gpu *g, size_t bytes, const char *purpose, struct error *e)
{
    size_t free_bytes;
    if (free_memory(&free_bytes, e))
        return e->code;
    if (!fits_with_headroom(bytes, free_bytes))
        return error_set(e, EXIT_USAGE, "%s needs %.2f GiB of GPU memory (plus %.2f GiB headroom); %s has %.2f GiB free",
                         purpose, bytes / 1073741824.0, MEMORY_HEADROOM / 1073741824.0, g->prop.name,
                         free_bytes / 1073741824.0);
    return 0;
}

int gpu_flush_l2(struct gpu *g, struct error *e)
{
    int *sink = (int *)((char *)g->l2_flush + g->l2_flush_bytes);
    const char *why = cache_sweep(g->l2_flush, g->l2_flush_bytes, sink, g->stream);
    if (why)
        return error_set(e, EXIT_RUNTIME, "sweeping the L2: %s", why);
    return 0;
}
