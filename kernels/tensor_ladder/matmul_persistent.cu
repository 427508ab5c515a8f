/*
 * persistent: warp_specialized with one block per SM (132 on an H100) that walks the tiles of P in a rasterized
 * order (tensor_ws.cuh: bands of 8 tile rows, down each column of tiles) instead of a grid of blocks, one tile
 * each. Two gains: the producer of a block runs into its next tile's k-tiles while its consumers are still
 * storing the last one (the epilogue overlaps the main loop, and no block launch or prologue is paid per tile),
 * and the 132 tiles in work at once cover about 8 x 16 tiles of P, so the rows of M and columns of N they read
 * are shared in the L2 rather than fetched again from DRAM.
 *
 * Counters that should move against warp_specialized: DRAM read bytes down (toward 2 W^2 x 2 bytes x a small
 * factor at W = 8192), L2 hit rate up, the tail of the last wave shorter (fewer idle SMs at the end: W = 4096 is
 * 512 tiles, 3.9 waves), time down a few %.
 */
#include "tensor_ws.cuh"

TENSOR_WS_GEMM(matmul_persistent, true, false, false, false)
