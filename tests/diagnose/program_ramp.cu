/*
 * A CUDA program for the steady-state measurement (docs/metrics.md, "No steady state") and its GPU test
 * (test_steady_state_gpu.c): one coalesced copy of n floats, 256 threads a block, launched once for each n from
 * 2^8 to 2^26 in powers of 4, smallest first, so that its kernel durations run from a few microseconds to about a
 * hundred. Profiled with every launch replayed, its unit figures against its durations show how long a kernel must
 * run before they are rates. Prints "ramp: correct" and exits 0 when the last copy is right, 1 when it is not, 2
 * when a CUDA call failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#define THREADS 256
#define SMALLEST_LOG2 8
#define LARGEST_LOG2 26

__global__ void ramp_copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

static void check(cudaError_t rc, const char *what)
{
    if (rc != cudaSuccess) {
        fprintf(stderr, "program_ramp: %s: %s\n", what, cudaGetErrorString(rc));
        exit(2);
    }
}

int main(void)
{
    const int largest = 1 << LARGEST_LOG2;
    float *in, *out, probe[2];
    check(cudaMalloc(&in, (size_t)largest * sizeof *in), "cudaMalloc");
    check(cudaMalloc(&out, (size_t)largest * sizeof *out), "cudaMalloc");
    check(cudaMemset(in, 0x3f, (size_t)largest * sizeof *in), "cudaMemset"); /* 0x3f3f3f3f: 0.7470... */
    for (int log2 = SMALLEST_LOG2; log2 <= LARGEST_LOG2; log2 += 2) {
        int n = 1 << log2;
        ramp_copy<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
        check(cudaGetLastError(), "ramp_copy");
    }
    check(cudaMemcpy(probe, out + largest - 2, sizeof probe, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check(cudaFree(in), "cudaFree");
    check(cudaFree(out), "cudaFree");
    unsigned bits;
    memcpy(&bits, &probe[1], sizeof bits);
    if (bits != 0x3f3f3f3fu) {
        fprintf(stderr, "program_ramp: the last copy ended in %08x, not 3f3f3f3f\n", bits);
        return 1;
    }
    printf("ramp: correct\n");
    return 0;
}
