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
 * cp.async copies 4, 8 or 16 bytes as they lie, so the transposed A tile is written with 4-byte
 * copies; B keeps 16-byte copies. For blocks wholly inside the matrix a fast path
 * (pipe_load_fast) has each warp copy 4 rows x 8 consecutive k of A, so a request touches 4 cache
 * lines, from per-thread base pointers set up once. Earlier versions were measured: with four
 * 64-bit address computations per group of copies (SASS) this rung was slower than warptiled,
 * and with a 16-rows-per-request mapping of A (and the address changes made with it) large_tiles
 * lost time (figures in docs/ladder.md).
 *
 * Counters that should move against warptiled:
 *   global load and shared store instructions   gone (LDGSTS instead; memscope's instrumented
 *                                               global-load metrics do not see LDGSTS: 0)
 *   barriers per k-tile                         2 -> 1
 *   stall reasons                               fewer long-scoreboard / barrier stalls
 *   shared memory per block                     3 stages: 48.75 KB (over the default 48 KB:
 *                                               the launcher raises the limit)
 * What these counters and the time did on an H100, with the run each figure came from:
 * docs/ladder.md.
 *
 * Tiles: warptiled's (WT_* in kernels/ladder/ladder_tiles.h: 128x128x16, warp 32x64, 8x8 per thread), so
 * only the pipeline changes; 128 registers at most (two blocks per SM, pipe_min_blocks).
 * PL_STAGES = 3, the best of 2, 3 and 4 stages in the sweep (reports/tuning-h100.csv; figures in
 * docs/ladder.md).
 *
 * Bounds: no guard per copy. Along m (rows of A) and n (columns of B) an index past the edge is
 * clamped into the matrix: the copy reads a real element that only feeds outputs that are never
 * stored. Along k the last tile, when width % BK != 0, zero-fills what lies past the edge
 * (cp.async with a source size of 0). B's 16-byte copies and P's 16-byte stores are taken when
 * width % 4 == 0, else a scalar edge path (4-byte copies, guarded 32-bit stores). Any Width >= 1.
 */
#include "ladder_gemm.cuh"

LADDER_PIPELINED_GEMM(matmul_pipelined, WT_BM, WT_BN, WT_BK, WT_WM, WT_WN, WT_TM, WT_TN, PL_STAGES, 0)
