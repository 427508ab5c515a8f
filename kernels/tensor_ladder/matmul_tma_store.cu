/*
 * tma_store: persistent with a TMA-store epilogue (tensor_ws.cuh, ws_store_tma); no clusters. Each consumer
 * warpgroup rounds its 64 x 256 outputs to bf16 a 64 x 64 box at a time and writes the box with stmatrix.x4 into
 * one of two swizzled 8 KB shared buffers (chunk c of row r at c ^ (r % 8): the 8 rows of each 8 x 8 matrix fall
 * in 8 bank groups, conflict-free; the wgmma accumulators are already in stmatrix's fragment layout, 16
 * instructions a thread instead of 64 stores), fences it for the async proxy, and one thread stores it with TMA
 * (UTMASTG) while the warpgroup writes the next box; a buffer is written again once cp.async.bulk.wait_group.read
 * says the store two boxes back has read it, and the last stores run under the next tile's k-loop. persistent's
 * direct stores were 4-byte writes, 8 rows a warp instruction: 8 sectors for 128 bytes, with both consumers' wgmma
 * stopped meanwhile. The boxes take 32 KB, so the ring keeps its 4 stages (4 x 48 + 32 KB of 227). The grid stays
 * one block per SM (132 on an H100); even_waves sizes it to the rounds of tiles.
 *
 * Counters that should move against persistent: global store instructions (STG) gone (UTMASTG instead, STSM for
 * the shared writes), L2 write requests down (a box is whole 128-byte lines), the time between two tiles' k-loops
 * shorter, tensor pipe busy up; most at W = 2048 (one tile a block: the epilogue is all exposed). The sweep of
 * 2026-11-27 (docs/tensor-ladder.md; its own timing, not memscope's) put this design at 98 / 100 / 94 % of cuBLAS
 * at W = 2048 / 4096 / 8192, against 81 / 90 / 85 % for persistent: the fastest rung.
 */
#include "tensor_ws.cuh"

TENSOR_WS_GEMM(matmul_tma_store, true, false, true, false)
