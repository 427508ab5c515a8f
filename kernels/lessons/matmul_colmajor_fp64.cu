/*
 * colmajor_padded_fp64: the double-precision kernel of the seed notes. All three
 * matrices are column-major, so threadIdx.x runs along P's rows: a warp then
 * reads 32 consecutive elements of a column of M and writes a column of P.
 * Both shared tiles are stored transposed (Ms[row][k], Ns[col][k]) so the inner
 * product walks along a shared row, and each row is padded to TILE+1 doubles so
 * that the transposed stores and the reads of Ms by 32 different rows spread
 * over the banks instead of piling onto one.
 *
 * Departure from the seed: the seed accumulated straight into P in global
 * memory on every step; here the sum stays in a register and P is written once.
 *
 * Bounds: zero-padded tiles, as in the tiled kernel.
 */
#include "lesson_launch.cuh"

#define TILE 32

__global__ void colmajor_padded_kernel(const double *M, const double *N, double *P, int width)
{
    __shared__ double Ms[TILE][TILE + 1];
    __shared__ double Ns[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.x * TILE + tx;
    int col = blockIdx.y * TILE + ty;
    double acc = 0;
    for (int phase = 0; phase < (width + TILE - 1) / TILE; ++phase) {
        int m_k = phase * TILE + ty; /* M(row, m_k) lives at M[m_k * width + row] */
        int n_k = phase * TILE + tx; /* N(n_k, col) lives at N[col * width + n_k] */
        Ms[tx][ty] = (row < width && m_k < width) ? M[m_k * width + row] : 0.0;
        Ns[ty][tx] = (col < width && n_k < width) ? N[col * width + n_k] : 0.0;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += Ms[tx][k] * Ns[ty][k];
        __syncthreads();
    }
    if (row < width && col < width)
        P[col * width + row] = acc;
}

extern "C" const char *matmul_colmajor_padded_fp64(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_lesson<double>(colmajor_padded_kernel, o, grid, block);
}

MATMUL_KERNEL(matmul_colmajor_padded_fp64_kernel, colmajor_padded_kernel, 0)
