/*
 * ldmatrix_swizzled: ldmatrix's tiles unpadded, the 16-byte chunks of each row permuted instead: chunk c of row r
 * is stored at chunk c XOR (r mod 8). The 8 rows of an 8 x 8 matrix read one logical chunk c, which lands at
 * c ^ 0, c ^ 1, ..., c ^ 7: eight different chunks, so eight different bank groups (a 128-byte row holds 8 chunks;
 * a 256-byte B row 16, whose bank group is the chunk mod 8, also eight different ones). Conflicts 0 as with
 * padding, without a byte of padding: this is the pattern TMA's 128-byte swizzle writes and wgmma reads (the
 * tma_wgmma rung), here computed by hand. A whole row stays contiguous within its own 128 bytes, so the
 * 16-byte stores of a quarter-warp still fill 128 distinct bytes: conflict-free.
 *
 * Counters that should move against ldmatrix: shared load wavefronts per LDSM 32 -> 4, conflicts -> 0, as
 * padded; against ldmatrix_padded: shared memory per block 35 KiB -> 32 KiB, a few integer instructions more
 * (the XOR), time the same within noise.
 *
 * Bounds: as ldmatrix (inner and cols multiples of 8, else refused).
 */
#include "tensor_common.cuh"

/* swizzled_layout (tensor_common.cuh, shared with cp_async): chunk c / 8 of row r at chunk (c / 8) ^ (r % 8). */
TENSOR_LDMATRIX_GEMM(matmul_ldmatrix_swizzled, swizzled_layout)
