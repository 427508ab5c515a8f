/*
 * tiled_transposed: the tiled kernel with the M tile stored transposed,
 * MdsT[k][row], and read along rows in the compute loop. The store is the
 * lesson: a warp's 32 threads write MdsT[tx][ty], 32 words TILE apart, and with
 * TILE = 32 all of them fall in one of shared memory's 32 banks, so each such
 * store is a 32-way bank conflict (32 wavefronts instead of 1).
 *
 * tiled_transposed_padded: the same with each row padded to TILE+1 words. The
 * stride becomes 33, every thread lands in a different bank, and the conflict
 * disappears at the cost of 32 unused words.
 *
 * Bounds: zero-padded tiles, as in the tiled kernel.
 */
#include "lesson_launch.cuh"

#define TILE 32

/* PAD is the only difference between the two variants; a template keeps them one kernel. */
template <int PAD>
__global__ void transposed_tile_kernel(const float *M, const float *N, float *P, int width)
{
    __shared__ float MdsT[TILE][TILE + PAD];
    __shared__ float Nds[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0;
    for (int phase = 0; phase < (width + TILE - 1) / TILE; ++phase) {
        int m_col = phase * TILE + tx;
        int n_row = phase * TILE + ty;
        MdsT[tx][ty] = (row < width && m_col < width) ? M[row * width + m_col] : 0.0f;
        Nds[ty][tx] = (n_row < width && col < width) ? N[n_row * width + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += MdsT[k][ty] * Nds[k][tx];
        __syncthreads();
    }
    if (row < width && col < width)
        P[row * width + col] = acc;
}

extern "C" const char *matmul_tiled_transposed(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_lesson<float>(transposed_tile_kernel<0>, o, grid, block);
}

extern "C" const char *matmul_tiled_transposed_padded(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_lesson<float>(transposed_tile_kernel<1>, o, grid, block);
}

MATMUL_KERNEL(matmul_tiled_transposed_kernel, transposed_tile_kernel<0>, 0)
MATMUL_KERNEL(matmul_tiled_transposed_padded_kernel, transposed_tile_kernel<1>, 0)
