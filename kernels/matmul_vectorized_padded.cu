/*
 * vectorized_padded: vectorized with the transposed M tile's rows padded by 4 floats,
 * As[BK][BM + 4]. The store of element (r, k) now lands in bank (4k + r) % 32: the two threads
 * that share a row r write with k 4 apart, 16 banks apart, and a warp's 32 stores hit 32 different
 * banks. The pad is 4 floats rather than 1 so that every row still starts 16-byte aligned for the
 * LDS.128 reads. (An XOR swizzle of the column would do the same without the 4 x BK wasted floats.)
 *
 * Counters that should move against vectorized:
 *   shared store wavefronts    down to 1 per store instruction: exact conflicts on stores -> 0
 *   shared memory per block    up by 4 x BK floats (128 bytes)
 *   time                       a little down at most: the transposed stores are 4 of the ~80
 *                              instructions a thread issues per k-tile besides 512 FFMA, so
 *                              their second wavefront is a small part of the time
 *
 * Tiles: as vectorized (BT2_* in kernels/ladder_tiles.h).
 * Bounds: as vectorized (16-byte path when width % 4 == 0, scalar edge path otherwise).
 */
#include "ladder_gemm.cuh"

extern "C" const char *matmul_vectorized_padded(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_staged_gemm<BT2_BM, BT2_BN, BT2_BK, 0, 0, BT2_TM, BT2_TN, 4, false>(o, grid, block);
}
