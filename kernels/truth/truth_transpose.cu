/*
 * Matrix transpose, three ways, at sizes far beyond the L2 so DRAM figures
 * mean DRAM: each moves width^2 floats in and out once.
 *   naive:  reads rows (coalesced), writes columns (one sector per thread).
 *   shared: a 32x32 tile read in rows and written out in rows, turned in
 *           shared memory; reading the tile's column is a 32-way conflict.
 *   padded: the tile rows padded to 33 words: the conflict is gone.
 */
#include "../launch_status.cuh"
#include "truth.h"

#define TILE 32

__global__ void transpose_naive_kernel(const float *in, float *out, int width)
{
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * TILE + threadIdx.y;
    out[(size_t)col * width + row] = in[(size_t)row * width + col];
}

/* PAD is the lesson's only parameter; a template keeps the two kernels one. */
template <int PAD>
__global__ void transpose_tiled_kernel(const float *in, float *out, int width)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[(size_t)y * width + x];
    __syncthreads();
    int out_x = blockIdx.y * TILE + threadIdx.x, out_y = blockIdx.x * TILE + threadIdx.y;
    out[(size_t)out_y * width + out_x] = tile[threadIdx.x][threadIdx.y];
}

extern "C" const char *truth_transpose_naive(const float *in, float *out, int width, cudaStream_t stream)
{
    dim3 grid(width / TILE, width / TILE), block(TILE, TILE);
    transpose_naive_kernel<<<grid, block, 0, stream>>>(in, out, width);
    return launch_status();
}

extern "C" const char *truth_transpose_shared(const float *in, float *out, int width, bool padded,
                                              cudaStream_t stream)
{
    dim3 grid(width / TILE, width / TILE), block(TILE, TILE);
    if (padded)
        transpose_tiled_kernel<1><<<grid, block, 0, stream>>>(in, out, width);
    else
        transpose_tiled_kernel<0><<<grid, block, 0, stream>>>(in, out, width);
    return launch_status();
}
