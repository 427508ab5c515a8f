/*
 * vectorized: 128-bit accesses. blocktiled_2d issues one 32-bit global load per float it brings
 * in, and on an H100 every instruction takes an issue slot an FFMA could have used. Here:
 *   - global loads are 16 bytes (LDG.128): a thread brings 4 consecutive floats of a row of M
 *     and of N at a time, a quarter of the global load instructions;
 *   - the M tile is stored transposed, As[k][m], so that the 8 values of M a thread needs for one
 *     step of k are consecutive and come in as two explicit 16-byte shared loads (LDS.128), like
 *     the 8 values of N (Bs[k][n]);
 *   - P is written with 16-byte stores.
 * The transposed store is the price: a thread's float4 of M (row r, columns c..c+3) goes to four
 * rows of As as four 32-bit stores. As has BM = 128 floats per row, a multiple of 32 banks, so
 * As[k][r] is in bank r % 32 whatever k; a warp's 32 slots cover 16 rows x 2 groups of columns
 * (quad_coords), so two threads store into each bank: every such store is a 2-way conflict, 2
 * wavefronts instead of 1. The rows are deliberately left unpadded; vectorized_padded cures it.
 *
 * Counters that should move against blocktiled_2d:
 *   global load instructions per FFMA   down 4x (same sectors, wider requests)
 *   shared store wavefronts             2 per transposed store: exact store conflicts > 0
 *   shared loads, wavefronts            unchanged (blocktiled_2d already got LDS.128 from the
 *                                       compiler, with the same conflicts on Bs)
 *   registers                           down (no k-tile of As kept in registers): at 128 or
 *                                       fewer, two blocks per SM instead of one, so look at the
 *                                       occupancy as well as the instruction counts
 * What these counters and the time did on an H100, with the run each figure came from:
 * docs/ladder.md.
 *
 * Tiles: blocktiled_2d's (BT2_* in kernels/ladder/ladder_tiles.h: 128x128x16, 8x8 per thread), so that
 * only the access width changes.
 *
 * Bounds: the 16-byte path needs every row 16-byte aligned, so the launcher takes it only when
 * width % 4 == 0 (and the buffers are aligned); a group of 4 columns is then wholly inside or
 * outside the matrix and one guard covers it. Otherwise the same kernel is instantiated with a
 * scalar edge path: four guarded 32-bit loads and stores per group. Tiles are zero-filled past the
 * edge and every store is guarded: any Width >= 1.
 */
#include "ladder_gemm.cuh"

/* A_PAD = 0: the transposed M tile unpadded, bank conflicts on its stores. Contiguous thread tiles. */
LADDER_STAGED_GEMM(matmul_vectorized, BT2_BM, BT2_BN, BT2_BK, 0, 0, BT2_TM, BT2_TN, 0, false)
