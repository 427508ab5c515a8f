/*
 * ldmatrix's bank conflicts, the tensor ladder's swizzle lesson in closed form: every warp runs `repetitions`
 * ldmatrix.x4 (LDSM.16.M88.4) over a shared tile of 64 rows, lane l giving the address of row l % 16 at 16-byte
 * chunk l / 16 (the 16 x 16 bf16 fragment of an mma.sync's A operand). A matrix's 8 rows are read together: at a
 * pitch of 128 bytes they all start in the same 4 banks, 8 wavefronts a matrix, 32 an instruction; padded to 144
 * bytes, or with chunk c of row r placed at c ^ (r % 8) in 128-byte rows, they fall in 8 different bank groups,
 * 4 wavefronts an instruction, the ideal (512 bytes / 128).
 */
#include <stdint.h>

#include "../launch_status.cuh"
#include "truth.h"

#define ROWS 64
#define MAX_PITCH 144

__global__ void ldmatrix_kernel(float *out, int pitch, int swizzled, int repetitions)
{
    __shared__ __align__(16) uint8_t tile[ROWS * MAX_PITCH];
    for (int i = threadIdx.x; i < ROWS * MAX_PITCH / 4; i += blockDim.x)
        ((uint32_t *)tile)[i] = 0x3F803F80u + (uint32_t)i; /* bf16 pairs, so the sum below is no constant */
    __syncthreads();
    const int lane = threadIdx.x & 31, row = lane % 16, chunk = lane / 16;
    const uint32_t address =
        (uint32_t)__cvta_generic_to_shared(tile + row * pitch + 16 * (swizzled ? chunk ^ (row % 8) : chunk));
    uint32_t sum = 0, step = 0;
    for (int r = 0; r < repetitions; ++r) {
        uint32_t a, b, c, d;
        /* the address depends on the last load (step is 0: no word has its top bit set), so ptxas cannot merge
         * the repeated loads of one address into one, as it did (14 LDSM a warp measured for 100 asked) */
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                     : "r"(address + step));
        sum += a ^ b ^ c ^ d;
        step = ((a ^ b ^ c ^ d) >> 31) << 4;
    }
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = (float)sum;
}

extern "C" const char *truth_ldmatrix(float *out, enum truth_ldmatrix_layout layout, int blocks, int warps_per_block,
                                      int repetitions, cudaStream_t stream)
{
    const int pitch = layout == TRUTH_LDMATRIX_PADDED ? MAX_PITCH : 128;
    ldmatrix_kernel<<<blocks, warps_per_block * 32, 0, stream>>>(out, pitch, layout == TRUTH_LDMATRIX_SWIZZLED,
                                                                 repetitions);
    return launch_status();
}
