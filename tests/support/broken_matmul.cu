/*
 * Deliberately wrong kernels: the GPU tests use them to show that the check
 * can fail. One forgets the last row of P (an off-by-one bound, so those
 * elements keep their NaN poison); one writes a wrong value into one element.
 * Both are run on square products only: they take P's rows as the width.
 */
#include "../../kernels/launch_status.cuh"
#include "broken_matmul.h"

__global__ void skips_last_row(const float *M, const float *N, float *P, int width)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= width - 1 || col >= width)
        return;
    float acc = 0;
    for (int k = 0; k < width; ++k)
        acc += M[row * width + k] * N[k * width + col];
    P[row * width + col] = acc;
}

__global__ void one_wrong_element(const float *M, const float *N, float *P, int width)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= width || col >= width)
        return;
    float acc = 0;
    for (int k = 0; k < width; ++k)
        acc += M[row * width + k] * N[k * width + col];
    P[row * width + col] = (row == width / 2 && col == width / 3) ? acc + 1.0f : acc;
}

extern "C" const char *broken_skips_last_row(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    skips_last_row<<<grid, block, 0, o->stream>>>((const float *)o->m, (const float *)o->n, (float *)o->p,
                                                  o->shape.rows);
    return launch_status();
}

extern "C" const char *broken_one_wrong_element(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    one_wrong_element<<<grid, block, 0, o->stream>>>((const float *)o->m, (const float *)o->n, (float *)o->p,
                                                      o->shape.rows);
    return launch_status();
}
