/*
 * The table of matrix-multiplication variants: one row per variant, in the order `memscope --list` shows them.
 * Everything else about a variant follows from its row: matmul.h declares its launcher (and kernel accessor),
 * matmul_registry.c builds the registry the harness reads, tests/fuzz/no_kernels.c the fuzz build's stubs.
 * Adding a variant is its kernel file and one row here.
 *
 * An X-macro with two kinds of row:
 *   KERNEL(name, launcher, precision, layout, ladder, block_x, block_y, tile_x, tile_y, description)
 *     a kernel file defines the launcher and, beside it, the accessor launcher##_kernel that names the
 *     __global__ function it starts (MATMUL_KERNEL in launch_status.cuh); block_* are the threads per block,
 *     tile_* the P elements one block covers along grid x and grid y;
 *   LIBRARY(name, launcher, precision, layout, ladder, description)
 *     a library picks its own launch shape and kernel: only the launcher is defined.
 * ladder: MATMUL_ON_LADDER for a step of the FP32 ladder, which runs from the first such row to the last in
 * table order (its step, 1 for the first, goes into each run's variants.csv: the report's ladder page follows
 * it); MATMUL_ON_TENSOR_LADDER likewise for a step of the bf16 tensor-core ladder (kernels/tensor_ladder/,
 * matmul_tensor_ladder_step); MATMUL_OFF_LADDER for every other row.
 */
#ifndef MEMSCOPE_MATMUL_REGISTRY_H
#define MEMSCOPE_MATMUL_REGISTRY_H

#include "ladder/ladder_tiles.h"
#include "tensor_ladder/tensor_tiles.h"

enum matmul_ladder { MATMUL_OFF_LADDER, MATMUL_ON_LADDER, MATMUL_ON_TENSOR_LADDER };

#define MATMUL_VARIANTS(KERNEL, LIBRARY)                                                                              \
    KERNEL("naive", matmul_naive_fp32, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER, 32, 32, 32, 32,               \
           "one thread per P element, threadIdx.x along columns: N read coalesced, M broadcast")                      \
    KERNEL("naive_uncoalesced", matmul_naive_uncoalesced, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_OFF_LADDER,           \
           32, 32, 32, 32,                                                                                            \
           "naive with the mapping swapped: a warp walks down the rows of M, one sector per thread")                  \
    KERNEL("tiled_16", matmul_tiled_16, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_OFF_LADDER, 16, 16, 16, 16,             \
           "16x16 shared-memory tiles of M and N, each global element reused 16 times")                               \
    KERNEL("tiled_32", matmul_tiled_32, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER, 32, 32, 32, 32,              \
           "32x32 shared-memory tiles of M and N, each global element reused 32 times")                               \
    KERNEL("tiled_corner_turning", matmul_tiled_corner_turning, MATMUL_FP32, MATMUL_N_COL_MAJOR, MATMUL_OFF_LADDER,   \
           32, 32, 32, 32, "N column-major, loaded down its columns (coalesced) and turned in shared memory")         \
    KERNEL("tiled_transposed", matmul_tiled_transposed, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_OFF_LADDER,             \
           32, 32, 32, 32, "M tile stored transposed in float[32][32]: each store a 32-way bank conflict")            \
    KERNEL("tiled_transposed_padded", matmul_tiled_transposed_padded, MATMUL_FP32, MATMUL_ROW_MAJOR,                  \
           MATMUL_OFF_LADDER, 32, 32, 32, 32,                                                                         \
           "the transposed M tile padded to float[32][33]: bank conflicts removed")                                   \
    /* The FP32 ladder, one idea per step; tiles from ladder_tiles.h, so the grid matches the kernel. */              \
    KERNEL("blocktiled_1d", matmul_blocktiled_1d, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                    \
           BT1_THREADS, 1, BT1_BN, BT1_BM,                                                                            \
           "thread coarsening along one dimension: each thread computes a column of 8 outputs")                       \
    KERNEL("blocktiled_2d", matmul_blocktiled_2d, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                    \
           BT2_THREADS, 1, BT2_BN, BT2_BM,                                                                            \
           "2D register blocking: 128x128 block tile, 8x8 outputs per thread, 32-bit loads")                          \
    KERNEL("vectorized", matmul_vectorized, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                          \
           BT2_THREADS, 1, BT2_BN, BT2_BM,                                                                            \
           "128-bit global and shared accesses, M tile stored transposed unpadded: 2-way store conflicts")            \
    KERNEL("vectorized_padded", matmul_vectorized_padded, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,            \
           BT2_THREADS, 1, BT2_BN, BT2_BM,                                                                            \
           "vectorized with the transposed M tile padded by 4 floats: store conflicts removed")                       \
    KERNEL("warptiled", matmul_warptiled, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                            \
           WT_THREADS, 1, WT_BN, WT_BM,                                                                               \
           "warp tiling: a warp owns a 32x64 sub-tile, lanes hold strided 4x4 groups: fewer shared wavefronts")       \
    KERNEL("pipelined", matmul_pipelined, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                            \
           WT_THREADS, 1, WT_BN, WT_BM,                                                                               \
           "3-stage cp.async pipeline: global-to-shared copies overlap the FFMAs, one barrier per k-tile")            \
    KERNEL("rasterized", matmul_rasterized, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                          \
           WT_THREADS, 1, WT_BN, WT_BM,                                                                               \
           "block rasterization: blocks walk bands of 16 block rows for L2 reuse, which pays only where DRAM is "     \
           "the limit")                                                                                               \
    KERNEL("large_tiles", matmul_large_tiles, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                        \
           LT_THREADS, 1, LT_BN, LT_BM,                                                                               \
           "128x256 block tiles, 16x8 outputs per thread: more FFMA per shared load and per k-tile")                  \
    KERNEL("halfwarp_lanes", matmul_halfwarp_lanes, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                  \
           LT_THREADS, 1, LT_BN, LT_BM,                                                                               \
           "large_tiles with lanes numbered down the warp's columns: 4x4 lanes per half-warp, meant to need fewer "   \
           "shared wavefronts")                                                                                       \
    KERNEL("icache_fit", matmul_icache_fit, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                          \
           LT_THREADS, 1, LT_BN, LT_BM,                                                                               \
           "halfwarp_lanes with the k loop unrolled 8 steps at a time, not 32: the loop fits the instruction cache")  \
    KERNEL("small_tiles", matmul_small_tiles, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                        \
           ST_THREADS, 1, ST_BN, ST_BM,                                                                               \
           "icache_fit with 64x128 block tiles, 8x8 outputs per thread: W = 1024 makes 128 blocks for 132 SMs, not "  \
           "32")                                                                                                      \
    KERNEL("split_k", matmul_split_k, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                                \
           LT_THREADS, 1, LT_BN, LT_BM,                                                                               \
           "icache_fit whose tiles share k among blocks where they alone leave SMs idle (W = 1024: 4 blocks a tile), "\
           "adding partial tiles atomically")                                                                        \
    KERNEL("spread_copies", matmul_spread_copies, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                    \
           LT_THREADS, 1, LT_BN, LT_BM,                                                                               \
           "split_k issuing the next k-tile's copies a quarter at a time among the FFMAs, blocks in grid order")      \
    LIBRARY("cublas", matmul_cublas_sgemm, MATMUL_FP32, MATMUL_ROW_MAJOR, MATMUL_ON_LADDER,                           \
            "cublasSgemm, true FP32 (default math mode, no TF32): the reference")                                     \
    KERNEL("naive_fp64", matmul_naive_fp64, MATMUL_FP64, MATMUL_ROW_MAJOR, MATMUL_OFF_LADDER, 32, 32, 32, 32,         \
           "the naive kernel in double precision")                                                                    \
    KERNEL("tiled_32_fp64", matmul_tiled_32_fp64, MATMUL_FP64, MATMUL_ROW_MAJOR, MATMUL_OFF_LADDER, 32, 32, 32, 32,   \
           "the 32x32 tiled kernel in double precision")                                                              \
    KERNEL("colmajor_padded_fp64", matmul_colmajor_padded_fp64, MATMUL_FP64, MATMUL_COL_MAJOR, MATMUL_OFF_LADDER,     \
           32, 32, 32, 32, "the seed notes' column-major double kernel: both tiles transposed, rows padded to 33")    \
    LIBRARY("cublas_fp64", matmul_cublas_dgemm, MATMUL_FP64, MATMUL_ROW_MAJOR, MATMUL_OFF_LADDER,                     \
            "cublasDgemm: the double-precision reference")                                                            \
    /* The bf16 tensor-core ladder, one idea per step (kernels/tensor_ladder/, docs/tensor-ladder.md); tiles from   \
     * tensor_tiles.h. The rungs from tma_wgmma on need sm_90a: elsewhere their launchers say why not. */          \
    KERNEL("mma_global", matmul_mma_global, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,                 \
           TG_THREADS, 1, TG_BN, TG_BM,                                                                            \
           "mma.sync.m16n8k16 on tensor cores, every fragment register loaded straight from global memory")         \
    KERNEL("ldmatrix", matmul_ldmatrix, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,                     \
           TS_THREADS, 1, TS_BN, TS_BM,                                                                            \
           "128x128x64 shared tiles read with ldmatrix, unpadded: every ldmatrix an 8-way bank conflict")           \
    KERNEL("ldmatrix_padded", matmul_ldmatrix_padded, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,       \
           TS_THREADS, 1, TS_BN, TS_BM, "ldmatrix with each tile row padded by 16 bytes: bank conflicts removed")   \
    KERNEL("ldmatrix_swizzled", matmul_ldmatrix_swizzled, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,   \
           TS_THREADS, 1, TS_BN, TS_BM,                                                                            \
           "ldmatrix with 16-byte chunks XOR-swizzled by row: conflicts removed without padding")                   \
    KERNEL("cp_async", matmul_cp_async, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,                     \
           TS_THREADS, 1, TS_BN, TS_BM, "ldmatrix_swizzled fed by a 4-stage cp.async pipeline, one barrier a k-tile") \
    KERNEL("tma_wgmma", matmul_tma_wgmma, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,                   \
           TW_THREADS, 1, TW_BN, TW_BM,                                                                            \
           "TMA copies with the 128-byte swizzle completing on mbarriers, wgmma m64n128k16 from shared memory")     \
    KERNEL("warp_specialized", matmul_warp_specialized, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,     \
           WS_THREADS, 1, WS_BN, WS_BM,                                                                            \
           "a TMA producer warpgroup and two wgmma m64n256k16 consumer warpgroups, setmaxnreg, full/empty barriers") \
    KERNEL("persistent", matmul_persistent, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,                 \
           WS_THREADS, 1, WS_BN, WS_BM,                                                                            \
           "warp_specialized with one block per SM walking the tiles in a rasterized order (the grid is the SMs)")  \
    KERNEL("tma_store", matmul_tma_store, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,                   \
           WS_THREADS, 1, WS_BN, WS_BM, "persistent storing P by stmatrix into swizzled boxes and TMA")             \
    KERNEL("cluster_multicast", matmul_cluster_multicast, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,   \
           WS_THREADS, 1, WS_BN, WS_BM, "tma_store in 2-CTA clusters, each k-tile of N multicast to both by TMA")   \
    KERNEL("even_waves", matmul_even_waves, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,                 \
           WS_THREADS, 1, WS_BN, WS_BM,                                                                            \
           "tma_store on the fewest blocks that take as few rounds of tiles: every round whole (128 blocks, not 132)") \
    KERNEL("chosen_tiles", matmul_chosen_tiles, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,             \
           WS_THREADS, 1, WS_BN, WS_BM,                                                                            \
           "even_waves with its tile chosen by the shape: 128 x 128 or 128 x 64 where 128 x 256 tiles leave SMs idle") \
    KERNEL("taller_tiles", matmul_taller_tiles, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,             \
           TT_THREADS, 1, WS_BN, WS_BM,                                                                            \
           "chosen_tiles choosing 192 x 128 tiles too (a third consumer warpgroup) where their rounds take least "   \
           "time")                                                                                                  \
    KERNEL("wider_tiles", matmul_wider_tiles, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,             \
           TT_THREADS, 1, WS_BN, WS_BM,                                                                            \
           "taller_tiles choosing 128 x 320 tiles too (two wgmma a consumer a k-step) where their rounds take least " \
           "time")                                                                                                  \
    KERNEL("overlapped_stores", matmul_overlapped_stores, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER, \
           TT_THREADS, 1, WS_BN, WS_BM,                                                                            \
           "wider_tiles storing each tile while the next tile's first k-tile of wgmma runs (its outputs kept as bf16 " \
           "pairs in registers)")                                                                                   \
    KERNEL("fitted_tiles", matmul_fitted_tiles, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,           \
           TT_THREADS, 1, WS_BN, WS_BM,                                                                            \
           "overlapped_stores choosing 144 x 128 tiles too (tiles of P^T: the 144 rows a wgmma's N, K-major) where " \
           "their rounds take least time")                                                                          \
    KERNEL("square_tiles", matmul_square_tiles, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,           \
           TT_THREADS, 1, WS_BN, WS_BM,                                                                            \
           "fitted_tiles choosing 192 x 192 tiles too (three consumers of 64 x 192) where their rounds take least "  \
           "time")                                                                                                  \
    KERNEL("short_tiles", matmul_short_tiles, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,             \
           TT_THREADS, 1, WS_BN, WS_BM,                                                                            \
           "square_tiles choosing 64 x 128 and 64 x 64 tiles too (one consumer of 64 rows) where their rounds take " \
           "least time: products of few rows")                                                                      \
    LIBRARY("cublas_bf16", matmul_cublas_bf16, MATMUL_BF16, MATMUL_ROW_MAJOR, MATMUL_ON_TENSOR_LADDER,                      \
            "cublasGemmEx, bf16 in and out, FP32 accumulation (CUBLAS_COMPUTE_32F), default algorithm: the bf16 "      \
            "tensor-core anchor")                                                                                     \
    LIBRARY("cublas_fp16", matmul_cublas_fp16, MATMUL_FP16, MATMUL_ROW_MAJOR, MATMUL_OFF_LADDER,                      \
            "cublasGemmEx, fp16 in and out, FP32 accumulation (CUBLAS_COMPUTE_32F), default algorithm")               \
    LIBRARY("cublas_tf32", matmul_cublas_tf32, MATMUL_TF32, MATMUL_ROW_MAJOR, MATMUL_OFF_LADDER,                      \
            "cublasGemmEx, float in and out, TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32)")

#endif
