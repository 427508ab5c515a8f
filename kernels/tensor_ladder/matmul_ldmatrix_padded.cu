/*
 * ldmatrix_padded: ldmatrix's tiles with each row padded by 8 bf16 (16 bytes, one ldmatrix row), the seed's fix
 * for a column read of float[32][32] carried to 16-byte rows. The A tile's pitch becomes 144 bytes and the B
 * tile's 272: row r of an 8 x 8 matrix starts at 16-byte bank group (r * 9) mod 8 = r (A) or (r * 17) mod 8 = r
 * (B), eight different groups, so each matrix is one wavefront and an ldmatrix.x4 four: conflicts 0.
 * The cost: 8 / 64 = 12.5 % more shared memory for A and 8 / 128 = 6.25 % for B (35 KiB a block instead of
 * 32 KiB), and 16-byte stores whose quarter-warps still write 128 contiguous bytes (conflict-free).
 *
 * Counters that should move against ldmatrix: shared load wavefronts per LDSM 32 -> 4 (the ideal), bank conflicts
 * -> 0, time down by what the excess wavefronts cost (the shared pipe, not the tensor pipe, was the limit).
 * Instructions, global traffic and registers unchanged.
 *
 * Bounds: as ldmatrix (inner and cols multiples of 8, else refused).
 */
#include "tensor_common.cuh"

/* Each tile row padded by 8 elements: 16 bytes, one bank group further per row. */
struct padded_layout {
    template <int COLS> __device__ __host__ static constexpr int pitch() { return COLS + 8; }
    template <int COLS> __device__ static int at(int r, int c) { return r * (COLS + 8) + c; }
};

TENSOR_LDMATRIX_GEMM(matmul_ldmatrix_padded, padded_layout)
