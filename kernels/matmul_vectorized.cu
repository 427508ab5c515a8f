/*
 * vectorized: 128-bit accesses. blocktiled_2d issues one 32-bit instruction per float it moves,
 * and on an H100 every load instruction takes an issue slot an FFMA could have used. Here:
 *   - global loads are 16 bytes (LDG.128): a thread brings 4 consecutive floats of a row of M
 *     and of N per k-tile, so a quarter of the global load instructions;
 *   - the M tile is stored transposed, As[k][m], so that the 8 values of M a thread needs for one
 *     step of k are consecutive and come in as two 16-byte shared loads (LDS.128), like the 8
 *     values of N (Bs[k][n]): 4 shared loads per 64 FFMA instead of 16;
 *   - P is written with 16-byte stores.
 * The transposed store is the price: a thread's float4 of M (row r, columns k..k+3) goes to four
 * rows of As as four 32-bit stores. As has BM = 128 floats per row, a multiple of 32 banks, so
 * As[k][r] is in bank r % 32 whatever k; two threads of a warp hold the two halves of one row of
 * the 128x8 tile (same r) and store into the same bank: each such store is a 2-way conflict,
 * 2 wavefronts instead of 1. The rows are deliberately left unpadded here; vectorized_padded
 * removes the conflict.
 *
 * Counters that should move against blocktiled_2d:
 *   global load requests per FFMA         down 4x (same sectors, fewer and wider requests)
 *   shared load instructions per FFMA     down 4x (1/16 instead of 1/4)
 *   shared store wavefronts               up: 2 per transposed store instruction (exact
 *                                         conflicts = instrumented wavefronts minus ideal > 0)
 *   registers per thread                  about the same
 *
 * Tiles: blocktiled_2d's (BT2_* in kernels/ladder_tiles.h: 128x128x8, 8x8 per thread), so that
 * only the access width changes.
 *
 * Bounds: the 16-byte path needs every row 16-byte aligned, so the launcher takes it only when
 * width % 4 == 0 (and the buffers are aligned); a group of 4 columns is then wholly inside or
 * outside the matrix and one guard covers it. Otherwise the same kernel is instantiated with a
 * scalar edge path: four guarded 32-bit loads and stores per group. Tiles are zero-filled past the
 * edge and every store is guarded: any Width >= 1.
 */
#include "ladder_gemm.cuh"

extern "C" const char *matmul_vectorized(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    /* A_PAD = 0: the transposed M tile unpadded, bank conflicts on its stores. Contiguous thread tiles. */
    return launch_staged_gemm<BT2_BM, BT2_BN, BT2_BK, 0, 0, BT2_TM, BT2_TN, 0, false>(o, grid, block);
}
