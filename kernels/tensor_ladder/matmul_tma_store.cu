/*
 * tma_store: cluster_multicast with a TMA-store epilogue (tensor_ws.cuh, ws_store_tma). Each consumer warpgroup
 * rounds its 64 x 256 outputs to bf16 a 64 x 64 box at a time and writes the box with stmatrix.x4 into one of two
 * swizzled 8 KB shared buffers (chunk c of row r at c ^ (r % 8): the 8 rows of each 8 x 8 matrix fall in 8 bank
 * groups, conflict-free; the wgmma accumulators are already in stmatrix's fragment layout, 16 instructions a
 * thread instead of 64 stores), fences it for the async proxy, and one thread stores it with TMA (UTMASTG) while
 * the warpgroup writes the next box; a buffer is written again once cp.async.bulk.wait_group.read says the store
 * two boxes back has read it, and the last stores run under the next tile's k-loop. The direct stores of the
 * rungs below were 4-byte writes, 8 rows a warp instruction: 8 sectors for 128 bytes. The boxes take 32 KB, so
 * the ring keeps its 4 stages (4 x 48 + 32 KB of 227).
 *
 * Counters that should move against cluster_multicast: global store instructions (STG) gone (UTMASTG instead,
 * STSM for the shared writes), L2 write requests down, the time between two tiles' k-loops shorter; the top rung,
 * to be compared with cublas_bf16 at W = 4096 and 8192, and at 2048 (one tile a block, the epilogue all exposed).
 */
#include "tensor_ws.cuh"

TENSOR_WS_GEMM(matmul_tma_store, true, true, true)
