/*
 * tma_store: cluster_multicast with a TMA-store epilogue (tensor_ws.cuh, ws_store_tma). Each consumer warpgroup
 * rounds its 64 x 256 outputs to bf16 into a swizzled shared tile (chunk c of row r at c ^ (r % 8): the 8 rows a
 * warp writes at once fall in 8 bank groups, conflict-free), fences it for the async proxy and one thread stores
 * it with four TMA copies (UTMASTG), which run while the consumers go on with their next tile's k-loop; the shared
 * tile is written again only after cp.async.bulk.wait_group.read says the last copies have read it. The direct
 * stores of the rungs below were 4-byte writes, 8 rows a warp instruction: 8 sectors for 128 bytes.
 * The cost: 64 KB of shared memory for the tile, so the ring is 3 stages deep, not 4.
 *
 * Counters that should move against cluster_multicast: global store instructions (STG) gone (UTMASTG instead),
 * L2 write requests down, the time between two tiles' k-loops shorter; the top rung, to be compared with
 * cublas_bf16 at W = 4096 and 8192.
 */
#include "tensor_ws.cuh"

TENSOR_WS_GEMM(matmul_tma_store, true, true, true)
