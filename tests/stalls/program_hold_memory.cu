/*
 * Holds the GPU's free memory but LEAVE_MIB, so that a memscope run beside it finds less:
 * `program_hold_memory LEAVE_MIB` prints "held" once it holds the memory, and keeps it until it is killed.
 * Exit codes: 2 bad usage; 1 a CUDA call failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cuda_runtime.h>

static int failed(cudaError_t rc, const char *call)
{
    fprintf(stderr, "program_hold_memory: %s: %s\n", call, cudaGetErrorString(rc));
    return 1;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    long leave_mib = argc == 2 ? strtol(argv[1], &end, 10) : -1;
    size_t free_bytes, total_bytes;
    void *held = NULL;
    cudaError_t rc;
    if (argc != 2 || *end || leave_mib < 0) {
        fprintf(stderr, "usage: program_hold_memory LEAVE_MIB\n");
        return 2;
    }
    if ((rc = cudaMemGetInfo(&free_bytes, &total_bytes)) != cudaSuccess)
        return failed(rc, "cudaMemGetInfo");
    size_t leave = (size_t)leave_mib << 20;
    if (free_bytes > leave && (rc = cudaMalloc(&held, free_bytes - leave)) != cudaSuccess)
        return failed(rc, "cudaMalloc");
    printf("held\n");
    fflush(stdout);
    for (;;)
        pause();
}
