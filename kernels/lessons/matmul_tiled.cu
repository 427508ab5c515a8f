/*
 * tiled_16, tiled_32, tiled_32_fp64: the PMPP shared-memory tiling. A block
 * loads one TILE x TILE tile of M and one of N into shared memory with
 * coalesced reads, then every thread reuses them TILE times, so global traffic
 * falls by a factor of TILE against the naive kernel.
 *
 * Bounds: tile elements outside the matrix are loaded as zeros (zero padding),
 * so partial tiles at the edges contribute nothing and any Width works.
 */
#include "lesson_launch.cuh"

/* Templated on the tile width (two registered tile sizes) and element type (FP32 and FP64). */
template <typename T, int TILE>
__global__ void tiled_kernel(const T *M, const T *N, T *P, int width)
{
    __shared__ T Mds[TILE][TILE];
    __shared__ T Nds[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    T acc = 0;
    for (int phase = 0; phase < (width + TILE - 1) / TILE; ++phase) {
        int m_col = phase * TILE + tx;
        int n_row = phase * TILE + ty;
        Mds[ty][tx] = (row < width && m_col < width) ? M[row * width + m_col] : T(0);
        Nds[ty][tx] = (n_row < width && col < width) ? N[n_row * width + col] : T(0);
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    if (row < width && col < width)
        P[row * width + col] = acc;
}

extern "C" const char *matmul_tiled_16(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_lesson<float>(tiled_kernel<float, 16>, o, grid, block);
}

extern "C" const char *matmul_tiled_32(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_lesson<float>(tiled_kernel<float, 32>, o, grid, block);
}

extern "C" const char *matmul_tiled_32_fp64(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_lesson<double>(tiled_kernel<double, 32>, o, grid, block);
}

MATMUL_KERNEL(matmul_tiled_16_kernel, (tiled_kernel<float, 16>), 0)
MATMUL_KERNEL(matmul_tiled_32_kernel, (tiled_kernel<float, 32>), 0)
MATMUL_KERNEL(matmul_tiled_32_fp64_kernel, (tiled_kernel<double, 32>), 0)
