/*
 * The buffers every case shares: allocated and filled once (src with PATHOLOGY_SOURCE_VALUE, the chase's rows with
 * PATHOLOGY_CHASE_NEXT, dst and the counter zeroed), then only read or overwritten by the cases.
 */
#include "../matmul.h"
#include "pathology.h"

__global__ void pathology_fill_kernel(float *src, size_t floats, unsigned *chase)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < floats; i += stride)
        src[i] = PATHOLOGY_SOURCE_VALUE(i);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)PATHOLOGY_CHASE_ROWS * 32; i += stride)
        chase[i] = PATHOLOGY_CHASE_NEXT((unsigned)(i / 32));
}

static const char *checked(cudaError_t rc)
{
    return rc == cudaSuccess ? NULL : cudaGetErrorString(rc);
}

extern "C" const char *pathology_sm_count(int *sms)
{
    int device = 0;
    cudaError_t rc = cudaGetDevice(&device);
    if (rc == cudaSuccess)
        rc = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device);
    return checked(rc);
}

extern "C" const char *pathology_release(struct pathology_buffers *b)
{
    const char *first = NULL, *why;
    void *pointers[] = {b->src, b->dst, b->chase, b->counter};
    for (size_t i = 0; i < sizeof pointers / sizeof pointers[0]; ++i)
        if ((why = checked(cudaFree(pointers[i]))) != NULL && first == NULL)
            first = why;
    if (b->blas != NULL && cublasDestroy(b->blas) != CUBLAS_STATUS_SUCCESS && first == NULL)
        first = "cublasDestroy failed";
    b->src = b->dst = NULL;
    b->chase = b->counter = NULL;
    b->blas = NULL;
    return first;
}

extern "C" const char *pathology_allocate(struct pathology_buffers *b)
{
    const size_t bytes = PATHOLOGY_BUFFER_FLOATS * sizeof(float);
    const char *why;
    b->src = b->dst = NULL;
    b->chase = b->counter = NULL;
    b->blas = NULL;
    if (cublasCreate(&b->blas) != CUBLAS_STATUS_SUCCESS) {
        b->blas = NULL;
        return "cublasCreate failed";
    }
    if ((why = matmul_cublas_configure(b->blas)) != NULL ||
        (why = checked(cudaMalloc((void **)&b->src, bytes))) != NULL ||
        (why = checked(cudaMalloc((void **)&b->dst, bytes))) != NULL ||
        (why = checked(cudaMalloc((void **)&b->chase, (size_t)PATHOLOGY_CHASE_ROWS * 32 * sizeof(unsigned)))) != NULL ||
        (why = checked(cudaMalloc((void **)&b->counter, sizeof(unsigned)))) != NULL ||
        (why = checked(cudaMemset(b->dst, 0, bytes))) != NULL ||
        (why = checked(cudaMemset(b->counter, 0, sizeof(unsigned)))) != NULL)
        goto fail;
    pathology_fill_kernel<<<1024, 256>>>(b->src, PATHOLOGY_BUFFER_FLOATS, b->chase);
    if ((why = checked(cudaGetLastError())) != NULL || (why = checked(cudaDeviceSynchronize())) != NULL)
        goto fail;
    return NULL;
fail:
    pathology_release(b);
    return why;
}
