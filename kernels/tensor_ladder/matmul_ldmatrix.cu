/*
 * ldmatrix: the k-tiles of M and N staged in shared memory, and each warp's mma.sync fragments read from there
 * with ldmatrix (one instruction hands a warp four 8 x 8 bf16 matrices, one 16-byte row per lane), as the seed's
 * tiled kernel read its tiles with LDS. Tiles 128 x 64 of M and 64 x 128 of N, stored as they lie in the matrix,
 * unpadded: a row of the A tile is 64 bf16 = 128 bytes, of the B tile 128 bf16 = 256 bytes.
 *
 * The bank conflict, exactly. Shared memory serves 128 bytes (32 banks of 4) per wavefront; an ldmatrix.x4 moves
 * 4 x 8 rows of 16 bytes = 512 bytes, so it needs at least 4 wavefronts, one per 8 x 8 matrix, whose 8 row
 * addresses each cover 4 banks. The 8 rows of a matrix are 8 consecutive rows of a tile at the same column, so
 * their byte addresses differ by the row pitch: 128 bytes (A) or 256 bytes (B), a multiple of 128, so all 8 rows
 * start in the same bank: an 8-way conflict, 8 wavefronts per matrix and 32 per ldmatrix.x4 where 4 would do.
 * In closed form, for a row pitch of p bytes (a multiple of 16): row r of a matrix starts at 16-byte bank group
 * (r p / 16) mod 8, so the wavefronts per matrix are 8 over the number of distinct groups, gcd(p / 16, 8):
 * p = 128 or 256 gives 8, p = 144 or 272 (ldmatrix_padded) gives 1.
 * Per launch (every LDSM of this kernel is an x4 of this kind):
 *   ldmatrix instructions = warps x k-tiles x 24 = 8 ceil(W/128)^2 x ceil(W/64) x 24
 *     (per warp and k-tile: 4 k-steps x (4 A + 2 B) ldmatrix.x4)
 *   shared load wavefronts = 32 per instruction, ideal 4 (512 bytes / 128): excess 28 per instruction.
 * The shared stores (uint4, a quarter-warp writing 128 contiguous bytes) are conflict-free: 4 wavefronts each.
 *
 * Counters that should move against mma_global: global load requests down about 16x (each element of a tile read
 * from global once per block instead of once per warp fragment), shared load wavefronts up from 0 to 32 per LDSM,
 * l1tex bank conflicts high (28 of 32 wavefronts excess), tensor pipe still mostly idle waiting on shared memory.
 *
 * Bounds: rows must start 16-byte aligned (inner and cols multiples of 8), else refused; chunks past the edge load as
 * zeros and stores past the edge are left out, so any such shape is computed exactly.
 */
#include "tensor_common.cuh"

/* Element (r, c) of a tile of COLS columns at r * COLS + c: the matrix's own layout. */
struct unpadded_layout {
    template <int COLS> __device__ __host__ static constexpr int pitch() { return COLS; }
    template <int COLS> __device__ static int at(int r, int c) { return r * COLS + c; }
};

TENSOR_LDMATRIX_GEMM(matmul_ldmatrix, unpadded_layout)
