/*
 * Strided and offset copy: the textbook coalescing experiment. A warp reads 32
 * floats, stride floats apart, starting offset floats past an aligned
 * boundary. With 32-byte sectors a request touches min(4*stride, 32) sectors
 * for offset 0; a misaligned start (offset not a multiple of 8) adds one.
 */
#include "../launch_status.cuh"
#include "truth.h"

__global__ void strided_copy_kernel(const float *in, float *out, int n, int stride, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(size_t)i * stride + offset];
}

extern "C" const char *truth_strided_copy(const float *in, float *out, int n, int stride, int offset,
                                          cudaStream_t stream)
{
    strided_copy_kernel<<<(n + 255) / 256, 256, 0, stream>>>(in, out, n, stride, offset);
    return launch_status();
}
