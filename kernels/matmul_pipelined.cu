/*
 * pipelined: a multi-stage cp.async pipeline. In warptiled a k-tile goes global -> registers ->
 * shared memory, then two barriers, then the FFMAs: while a block waits for its loads only the
 * other resident block can compute, and the loads pass through registers. Here PL_STAGES = 3
 * shared-memory buffers form a ring filled with cp.async (Ampere's asynchronous copy: global to
 * shared without registers, completion tracked per thread in commit groups). While the FFMAs
 * consume tile t, the copies of tiles t+1 and t+2 are in flight; at the top of each iteration a
 * thread waits for its own copies of tile t (cp.async.wait_group STAGES-2), one barrier makes
 * everyone's copies visible and guarantees that everyone has finished tile t-1, whose buffer is
 * then refilled with tile t+STAGES-1. One barrier per k-tile instead of two.
 *
 * cp.async copies 4, 8 or 16 bytes as they lie, so the transposed A tile is written with four
 * 4-byte copies per thread (the 16-byte global load of warptiled becomes 4 narrower requests that
 * hit the same sectors, through L1); B keeps 16-byte copies. The padded layout of A is kept.
 *
 * Counters that should move against warptiled:
 *   stall reasons              fewer long-scoreboard / barrier stalls; achieved FFMA rate up
 *   registers per thread       down a little (no staging registers for the next tile)
 *   global load instructions   LDG gone: LDGSTS (cp.async) instead; sectors unchanged; the
 *                              instrumented global-load metrics do not see LDGSTS
 *   shared memory per block    up to 3 stages (about 25 KB at 128x128x8)
 *
 * Tiles: warptiled's (WT_* in kernels/ladder_tiles.h: 128x128x8, warp 32x64, 8x8 per thread), so
 * only the pipeline changes; PL_STAGES = 3 (tuned: see reports/tuning-h100.csv).
 *
 * Bounds: no guard per copy. Along m (rows of A) and n (columns of B) an index past the edge is
 * clamped into the matrix: the copy reads a real element that only feeds outputs that are never
 * stored. Along k the last tile, when width % BK != 0, zero-fills what lies past the edge
 * (cp.async with a source size of 0). B's 16-byte copies and P's 16-byte stores are taken when
 * width % 4 == 0, else a scalar edge path (4-byte copies, guarded 32-bit stores). Any Width >= 1.
 */
#include "ladder_gemm.cuh"

extern "C" const char *matmul_pipelined(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    return launch_pipelined_gemm<WT_BM, WT_BN, WT_BK, WT_WM, WT_WN, WT_TM, WT_TN, PL_STAGES, 0>(o, grid, block);
}
