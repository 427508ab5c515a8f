/*
 * A CUDA program with two planted causes, each on a line of its own, for memscope-profile's source group
 * (test_profile_gpu.c): scatter_columns stores each warp's 32 floats into 32 rows (uncoalesced stores: 32 sectors
 * a store instruction where 4 would do), transpose_tile stores a 32 x 32 tile column-wise into shared memory
 * without padding (each store instruction's 32 lanes in one bank: 32 wavefronts where 1 would do). Over 2^24
 * floats (long enough, some 100 us each, for the findings to judge their rates) in blocks of 1,024 threads, each
 * kernel once, their counts have closed forms:
 *   scatter_columns: 524,288 load and 524,288 store instructions; 2,097,152 load sectors (all ideal), 16,777,216
 *   store sectors of which 14,680,064 excess;
 *   transpose_tile: 524,288 shared store instructions, 16,777,216 wavefronts of which 16,252,928 excess; its shared
 *   loads and its global accesses are conflict-free and coalesced.
 * The program checks its results: "lines: correct" and exit 0, else what is wrong and 1 (2: a CUDA call failed).
 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#define SIDE 4096
#define ELEMENTS (SIDE * SIDE)
#define TILE 32

__global__ void scatter_columns(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[(i % TILE) * (ELEMENTS / TILE) + i / TILE] = in[i];
}

__global__ void transpose_tile(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.x][threadIdx.y] = in[y * SIDE + x];
    __syncthreads();
    out[(blockIdx.x * TILE + threadIdx.y) * SIDE + blockIdx.y * TILE + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

static void check(cudaError_t rc, const char *what)
{
    if (rc != cudaSuccess) {
        fprintf(stderr, "program_lines: %s: %s\n", what, cudaGetErrorString(rc));
        exit(2);
    }
}

/* How many of the outputs are not where the two kernels put them. */
static int wrong_outputs(const float *in, const float *scattered, const float *transposed)
{
    int wrong = 0;
    for (int i = 0; i < ELEMENTS; ++i) {
        wrong += scattered[(i % TILE) * (ELEMENTS / TILE) + i / TILE] != in[i];
        wrong += transposed[(i % SIDE) * SIDE + i / SIDE] != in[i];
    }
    return wrong;
}

int main(void)
{
    static float in[ELEMENTS], scattered[ELEMENTS], transposed[ELEMENTS];
    float *d_in, *d_scattered, *d_transposed;
    for (int i = 0; i < ELEMENTS; ++i)
        in[i] = (float)i;
    check(cudaMalloc(&d_in, sizeof in), "cudaMalloc");
    check(cudaMalloc(&d_scattered, sizeof in), "cudaMalloc");
    check(cudaMalloc(&d_transposed, sizeof in), "cudaMalloc");
    check(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice), "cudaMemcpy");
    scatter_columns<<<ELEMENTS / 1024, 1024>>>(d_in, d_scattered);
    check(cudaGetLastError(), "scatter_columns");
    transpose_tile<<<dim3(SIDE / TILE, SIDE / TILE), dim3(TILE, TILE)>>>(d_in, d_transposed);
    check(cudaGetLastError(), "transpose_tile");
    check(cudaMemcpy(scattered, d_scattered, sizeof in, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaMemcpy(transposed, d_transposed, sizeof in, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaFree(d_in), "cudaFree");
    check(cudaFree(d_scattered), "cudaFree");
    check(cudaFree(d_transposed), "cudaFree");
    int wrong = wrong_outputs(in, scattered, transposed);
    if (wrong) {
        printf("lines: wrong: %d outputs misplaced\n", wrong);
        return 1;
    }
    printf("lines: correct\n");
    return 0;
}
