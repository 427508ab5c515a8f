/*
 * A CUDA program for memscope-profile's GPU test (test_profile_gpu.c) whose kernels do not give the same result
 * twice: increment adds 1 to each of 2^20 ints (three launches, inside the NVTX range "increments"), and
 * count_blocks adds 1 per block to a __device__ counter (two launches of 64 blocks). A replayed pass that was not
 * undone would show in the result, which the program checks itself: it prints "increments: correct" and exits 0,
 * or says what is wrong and exits 1 (2: a CUDA call failed).
 */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#define ELEMENTS (1 << 20)
#define THREADS 256
#define LAUNCHES 3
#define COUNTING_BLOCKS 64
#define COUNTING_LAUNCHES 2

__device__ unsigned int blocks_seen;

__global__ void increment(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1;
}

__global__ void count_blocks(void)
{
    if (threadIdx.x == 0)
        atomicAdd(&blocks_seen, 1u);
}

static void check(cudaError_t rc, const char *what)
{
    if (rc != cudaSuccess) {
        fprintf(stderr, "program_increments: %s: %s\n", what, cudaGetErrorString(rc));
        exit(2);
    }
}

int main(void)
{
    static int host[ELEMENTS];
    int *x;
    unsigned int seen = 0;
    check(cudaMalloc(&x, sizeof host), "cudaMalloc");
    check(cudaMemset(x, 0, sizeof host), "cudaMemset");
    nvtxRangePushA("increments");
    for (int i = 0; i < LAUNCHES; ++i) {
        increment<<<ELEMENTS / THREADS, THREADS>>>(x, ELEMENTS);
        check(cudaGetLastError(), "increment");
    }
    nvtxRangePop();
    for (int i = 0; i < COUNTING_LAUNCHES; ++i) {
        count_blocks<<<COUNTING_BLOCKS, 32>>>();
        check(cudaGetLastError(), "count_blocks");
    }
    check(cudaMemcpy(host, x, sizeof host, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaMemcpyFromSymbol(&seen, blocks_seen, sizeof seen), "cudaMemcpyFromSymbol");
    check(cudaFree(x), "cudaFree");
    int wrong = 0;
    for (int i = 0; i < ELEMENTS; ++i)
        wrong += host[i] != LAUNCHES;
    if (wrong || seen != COUNTING_LAUNCHES * COUNTING_BLOCKS) {
        printf("increments: wrong: %d of %d elements are not %d; %u blocks counted, not %d\n", wrong, ELEMENTS,
               LAUNCHES, seen, COUNTING_LAUNCHES * COUNTING_BLOCKS);
        return 1;
    }
    printf("increments: correct\n");
    return 0;
}
