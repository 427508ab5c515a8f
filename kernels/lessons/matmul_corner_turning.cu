/*
 * tiled_corner_turning: N is stored column-major. Loading its tile the way the
 * plain tiled kernel does (thread x -> column) would make a warp read 32
 * elements Width apart. Corner turning swaps the roles while loading: thread x
 * walks down one column of N, reading consecutive addresses (coalesced), and
 * the tile is turned as it is written to shared memory. The compute loop then
 * reads the tile exactly as the row-major kernel does.
 *
 * The turned store writes a column of the shared tile; its rows are padded to
 * TILE+1 words so that store is free of bank conflicts too, keeping this
 * variant about coalescing alone.
 *
 * Bounds: zero-padded tiles, as in the tiled kernel.
 */
#include "lesson_launch.cuh"

#define TILE 32

__global__ void corner_turning_kernel(const float *M, const float *N_colmajor, float *P, int width)
{
    __shared__ float Mds[TILE][TILE];
    __shared__ float Nds[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int load_col = blockIdx.x * TILE + ty; /* the column of N this thread helps load */
    float acc = 0;
    for (int phase = 0; phase < (width + TILE - 1) / TILE; ++phase) {
        int m_col = phase * TILE + tx;
        int load_k = phase * TILE + tx;
        Mds[ty][tx] = (row < width && m_col < width) ? M[row * width + m_col] : 0.0f;
        Nds[tx][ty] = (load_k < width && load_col < width) ? N_colmajor[load_col * width + load_k] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    if (row < width && col < width)
        P[row * width + col] = acc;
}

extern "C" const char *matmul_tiled_corner_turning(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_lesson<float>(corner_turning_kernel, o, grid, block);
}

MATMUL_KERNEL(matmul_tiled_corner_turning_kernel, corner_turning_kernel, 0)
