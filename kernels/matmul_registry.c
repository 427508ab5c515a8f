/* The registry of matrix-multiplication variants: one row per variant. */
#include <string.h>

#include "ladder/ladder_tiles.h"
#include "matmul.h"

static const struct matmul_variant variants[] = {
    {"naive", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "one thread per P element, threadIdx.x along columns: N read coalesced, M broadcast",
     32, 32, 32, 32, matmul_naive_fp32, matmul_naive_fp32_kernel},
    {"naive_uncoalesced", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "naive with the mapping swapped: a warp walks down the rows of M, one sector per thread",
     32, 32, 32, 32, matmul_naive_uncoalesced, matmul_naive_uncoalesced_kernel},
    {"tiled_16", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "16x16 shared-memory tiles of M and N, each global element reused 16 times",
     16, 16, 16, 16, matmul_tiled_16, matmul_tiled_16_kernel},
    {"tiled_32", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "32x32 shared-memory tiles of M and N, each global element reused 32 times",
     32, 32, 32, 32, matmul_tiled_32, matmul_tiled_32_kernel},
    {"tiled_corner_turning", MATMUL_FP32, MATMUL_N_COL_MAJOR,
     "N column-major, loaded down its columns (coalesced) and turned in shared memory",
     32, 32, 32, 32, matmul_tiled_corner_turning, matmul_tiled_corner_turning_kernel},
    {"tiled_transposed", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "M tile stored transposed in float[32][32]: each store a 32-way bank conflict",
     32, 32, 32, 32, matmul_tiled_transposed, matmul_tiled_transposed_kernel},
    {"tiled_transposed_padded", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "the transposed M tile padded to float[32][33]: bank conflicts removed",
     32, 32, 32, 32, matmul_tiled_transposed_padded, matmul_tiled_transposed_padded_kernel},
    /* The FP32 ladder, one idea per step; tiles from ladder_tiles.h, so the grid matches the kernel. */
    {"blocktiled_1d", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "thread coarsening along one dimension: each thread computes a column of 8 outputs",
     BT1_THREADS, 1, BT1_BN, BT1_BM, matmul_blocktiled_1d, matmul_blocktiled_1d_kernel},
    {"blocktiled_2d", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "2D register blocking: 128x128 block tile, 8x8 outputs per thread, 32-bit loads",
     BT2_THREADS, 1, BT2_BN, BT2_BM, matmul_blocktiled_2d, matmul_blocktiled_2d_kernel},
    {"vectorized", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "128-bit global and shared accesses, M tile stored transposed unpadded: 2-way store conflicts",
     BT2_THREADS, 1, BT2_BN, BT2_BM, matmul_vectorized, matmul_vectorized_kernel},
    {"vectorized_padded", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "vectorized with the transposed M tile padded by 4 floats: store conflicts removed",
     BT2_THREADS, 1, BT2_BN, BT2_BM, matmul_vectorized_padded, matmul_vectorized_padded_kernel},
    {"warptiled", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "warp tiling: a warp owns a 32x64 sub-tile, lanes hold strided 4x4 groups: fewer shared wavefronts",
     WT_THREADS, 1, WT_BN, WT_BM, matmul_warptiled, matmul_warptiled_kernel},
    {"pipelined", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "3-stage cp.async pipeline: global-to-shared copies overlap the FFMAs, one barrier per k-tile",
     WT_THREADS, 1, WT_BN, WT_BM, matmul_pipelined, matmul_pipelined_kernel},
    {"rasterized", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "block rasterization: blocks walk bands of 16 block rows for L2 reuse; on an H100 the L2 hit rate rose but "
     "the kernel is not DRAM-bound, and it ran 2 % slower at W = 4096",
     WT_THREADS, 1, WT_BN, WT_BM, matmul_rasterized, matmul_rasterized_kernel},
    {"large_tiles", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "128x256 block tiles, 16x8 outputs per thread: more FFMA per shared load and per k-tile",
     LT_THREADS, 1, LT_BN, LT_BM, matmul_large_tiles, matmul_large_tiles_kernel},
    {"halfwarp_lanes", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "large_tiles with lanes numbered down the warp's columns: 4x4 lanes per half-warp, fewer shared wavefronts",
     LT_THREADS, 1, LT_BN, LT_BM, matmul_halfwarp_lanes, matmul_halfwarp_lanes_kernel},
    {"icache_fit", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "halfwarp_lanes with the k loop unrolled 8 steps at a time, not 32: the loop fits the instruction cache",
     LT_THREADS, 1, LT_BN, LT_BM, matmul_icache_fit, matmul_icache_fit_kernel},
    {"cublas", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "cublasSgemm, true FP32 (default math mode, no TF32): the reference",
     0, 0, 0, 0, matmul_cublas_sgemm, NULL},
    {"naive_fp64", MATMUL_FP64, MATMUL_ROW_MAJOR,
     "the naive kernel in double precision",
     32, 32, 32, 32, matmul_naive_fp64, matmul_naive_fp64_kernel},
    {"tiled_32_fp64", MATMUL_FP64, MATMUL_ROW_MAJOR,
     "the 32x32 tiled kernel in double precision",
     32, 32, 32, 32, matmul_tiled_32_fp64, matmul_tiled_32_fp64_kernel},
    {"colmajor_padded_fp64", MATMUL_FP64, MATMUL_COL_MAJOR,
     "the seed notes' column-major double kernel: both tiles transposed, rows padded to 33",
     32, 32, 32, 32, matmul_colmajor_padded_fp64, matmul_colmajor_padded_fp64_kernel},
    {"cublas_fp64", MATMUL_FP64, MATMUL_ROW_MAJOR,
     "cublasDgemm: the double-precision reference",
     0, 0, 0, 0, matmul_cublas_dgemm, NULL},
};

const struct matmul_variant *matmul_variants(size_t *count)
{
    *count = sizeof variants / sizeof variants[0];
    return variants;
}

/* The FP32 ladder from the first lesson to the library, one idea per step: the report's ladder page follows this
 * order (written into each run's variants.csv). */
static const char *const fp32_ladder[] = {
    "naive",     "tiled_32",   "blocktiled_1d", "blocktiled_2d",  "vectorized", "vectorized_padded", "warptiled",
    "pipelined", "rasterized", "large_tiles",   "halfwarp_lanes", "icache_fit", "cublas",
};

int matmul_ladder_step(const char *name)
{
    for (size_t i = 0; i < sizeof fp32_ladder / sizeof fp32_ladder[0]; ++i)
        if (strcmp(fp32_ladder[i], name) == 0)
            return (int)i + 1;
    return 0;
}

const struct matmul_variant *matmul_find(const char *name)
{
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; ++i)
        if (strcmp(variants[i].name, name) == 0)
            return &variants[i];
    return NULL;
}

static unsigned blocks_to_cover(int width, unsigned per_block)
{
    return per_block == 0 ? 1 : ((unsigned)width + per_block - 1) / per_block;
}

dim3 matmul_grid(const struct matmul_variant *v, int width)
{
    dim3 grid = {blocks_to_cover(width, v->tile_x), blocks_to_cover(width, v->tile_y), 1};
    return grid;
}

dim3 matmul_block(const struct matmul_variant *v)
{
    dim3 block = {v->block_x, v->block_y, 1};
    return block;
}

size_t matmul_element_size(enum matmul_precision precision)
{
    return precision == MATMUL_FP64 ? sizeof(double) : sizeof(float);
}

const char *matmul_precision_name(enum matmul_precision precision)
{
    return precision == MATMUL_FP64 ? "fp64" : "fp32";
}

const char *matmul_layout_name(enum matmul_layout layout)
{
    switch (layout) {
    case MATMUL_ROW_MAJOR:
        return "row_major";
    case MATMUL_N_COL_MAJOR:
        return "n_col_major";
    case MATMUL_COL_MAJOR:
        return "col_major";
    }
    return "unknown";
}

double matmul_flop(int width)
{
    double w = width;
    return 2.0 * w * w * w;
}

double matmul_min_bytes(const struct matmul_variant *v, int width)
{
    double w = width;
    return 3.0 * w * w * (double)matmul_element_size(v->precision);
}
