/*
 * naive, naive_fp64: one thread per element of P, threadIdx.x along P's columns
 * (the PMPP mapping). In each iteration of k the warp's 32 threads read one
 * element of M (a broadcast) and 32 consecutive elements of a row of N (one
 * coalesced request): every operand comes from global memory, but the access
 * pattern is the favourable one.
 *
 * naive_uncoalesced: the same work with the thread mapping swapped, so that
 * threadIdx.x runs down P's rows. Now a warp reads element k of 32 different
 * rows of M, Width elements apart (figure A of the seed notes): 32 sectors per
 * request where the coalesced mapping needs a few, and many times slower.
 *
 * Bounds: threads outside the Width x Width square do nothing, so any Width works.
 */
#include "lesson_launch.cuh"

/* One template for both precisions: the lesson is identical, only the element type differs. */
template <typename T>
__global__ void naive_kernel(const T *M, const T *N, T *P, int width)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= width || col >= width)
        return;
    T acc = 0;
    for (int k = 0; k < width; ++k)
        acc += M[row * width + k] * N[k * width + col];
    P[row * width + col] = acc;
}

__global__ void naive_uncoalesced_kernel(const float *M, const float *N, float *P, int width)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= width || col >= width)
        return;
    float acc = 0;
    for (int k = 0; k < width; ++k)
        acc += M[row * width + k] * N[k * width + col];
    P[row * width + col] = acc;
}

extern "C" const char *matmul_naive_fp32(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_lesson<float>(naive_kernel<float>, o, grid, block);
}

extern "C" const char *matmul_naive_fp64(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_lesson<double>(naive_kernel<double>, o, grid, block);
}

extern "C" const char *matmul_naive_uncoalesced(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_lesson<float>(naive_uncoalesced_kernel, o, grid, block);
}

MATMUL_KERNEL(matmul_naive_fp32_kernel, naive_kernel<float>, 0)
MATMUL_KERNEL(matmul_naive_fp64_kernel, naive_kernel<double>, 0)
MATMUL_KERNEL(matmul_naive_uncoalesced_kernel, naive_uncoalesced_kernel, 0)
