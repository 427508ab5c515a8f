/* The registry of matrix-multiplication variants: one row per variant. */
#include <string.h>

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
    {"blocktiled_2d", MATMUL_FP32, MATMUL_ROW_MAJOR,
     "64x64 block tile, 4x4 outputs per thread held in registers, 16-byte shared loads",
     16, 16, 64, 64, matmul_blocktiled_2d, matmul_blocktiled_2d_kernel},
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
 * order. The ladder's own kernels appear here once they exist. */
static const char *const fp32_ladder[] = {
    "naive", "tiled_32", "blocktiled_2d", "cublas",
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
