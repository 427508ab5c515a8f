/*
 * vectorized_padded: vectorized with the transposed M tile's rows padded by 4 floats,
 * As[BK][BM + 4]. The store of element (r, k) now lands in bank (4k + r) % 32: the two threads
 * that share a row r write with k 4 apart, 16 banks apart, and a warp's 32 stores hit 32 different
 * banks. The pad is 4 floats rather than 1 so that every row still starts 16-byte aligned for the
 * LDS.128 reads. (An XOR swizzle of the column would do the same without the 4 x BK wasted floats.)
 *
 * Counters that should move against vectorized:
 *   shared store wavefronts    down: exact store conflicts -> 0
 *   shared memory per block    up by 4 x BK floats (256 bytes)
 *   time                       a little down: the transposed stores are 8 of the ~90
 *                              other instructions a thread issues per k-tile beside 1024 FFMA
 * What these counters and the time did on an H100, with the run each figure came from:
 * docs/ladder.md.
 *
 * Tiles: as vectorized (BT2_* in kernels/ladder/ladder_tiles.h).
 * Bounds: as vectorized (16-byte path when width % 4 == 0, scalar edge path otherwise).
 */
#include "ladder_gemm.cuh"

LADDER_STAGED_GEMM(matmul_vectorized_padded, BT2_BM, BT2_BN, BT2_BK, 0, 0, BT2_TM, BT2_TN, 4, false)
