/* The registry of matrix-multiplication variants, built from the table in matmul_registry.h. */
#include <stdio.h>
#include <string.h>

#include "matmul.h"

#define KERNEL_ROW(name, launcher, precision, layout, ladder, block_x, block_y, tile_x, tile_y, description)        \
    {name, precision, layout, description, block_x, block_y, tile_x, tile_y, launcher, launcher##_kernel},
#define LIBRARY_ROW(name, launcher, precision, layout, ladder, description)                                          \
    {name, precision, layout, description, 0, 0, 0, 0, launcher, NULL},
static const struct matmul_variant variants[] = {MATMUL_VARIANTS(KERNEL_ROW, LIBRARY_ROW)};
#undef KERNEL_ROW
#undef LIBRARY_ROW

/* The table's ladder column, index for index with variants[]: kept beside it, not in struct matmul_variant,
 * since the harness only asks for a variant's step by name (matmul_ladder_step). */
#define LADDER_OF_ROW(name, launcher, precision, layout, ladder, ...) ladder,
static const enum matmul_ladder ladder_column[] = {MATMUL_VARIANTS(LADDER_OF_ROW, LADDER_OF_ROW)};
#undef LADDER_OF_ROW

const struct matmul_variant *matmul_variants(size_t *count)
{
    *count = sizeof variants / sizeof variants[0];
    return variants;
}

/* A ladder is the table's rows on it, in table order: the FP32 ladder from the first lesson to the library, one
 * idea per step, and the bf16 tensor-core ladder likewise. The report's ladder pages follow this order (written
 * into each run's variants.csv). */
static int step_on(enum matmul_ladder ladder, const char *name)
{
    int step = 0;
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; ++i) {
        step += ladder_column[i] == ladder;
        if (strcmp(variants[i].name, name) == 0)
            return ladder_column[i] == ladder ? step : 0;
    }
    return 0;
}

int matmul_ladder_step(const char *name)
{
    return step_on(MATMUL_ON_LADDER, name);
}

int matmul_tensor_ladder_step(const char *name)
{
    return step_on(MATMUL_ON_TENSOR_LADDER, name);
}

const struct matmul_variant *matmul_find(const char *name)
{
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; ++i)
        if (strcmp(variants[i].name, name) == 0)
            return &variants[i];
    return NULL;
}

static unsigned blocks_to_cover(int extent, unsigned per_block)
{
    return per_block == 0 ? 1 : ((unsigned)extent + per_block - 1) / per_block;
}

dim3 matmul_grid(const struct matmul_variant *v, struct matmul_shape shape)
{
    dim3 grid = {blocks_to_cover(shape.cols, v->tile_x), blocks_to_cover(shape.rows, v->tile_y), 1};
    return grid;
}

dim3 matmul_block(const struct matmul_variant *v)
{
    dim3 block = {v->block_x, v->block_y, 1};
    return block;
}

/* Bytes per stored element: tf32 is stored as float; bf16 and fp16 in 16 bits. */
size_t matmul_element_size(enum matmul_precision precision)
{
    switch (precision) {
    case MATMUL_FP64:
        return sizeof(double);
    case MATMUL_BF16:
    case MATMUL_FP16:
        return 2;
    case MATMUL_FP32:
    case MATMUL_TF32:
        break;
    }
    return sizeof(float);
}

const char *matmul_precision_name(enum matmul_precision precision)
{
    static const char *const names[] = {[MATMUL_FP32] = "fp32", [MATMUL_FP64] = "fp64", [MATMUL_BF16] = "bf16",
                                        [MATMUL_FP16] = "fp16", [MATMUL_TF32] = "tf32"};
    return names[precision];
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

const char *matmul_refusal(const char *why)
{
    const size_t prefix = strlen(MATMUL_REFUSED);
    return why && strncmp(why, MATMUL_REFUSED, prefix) == 0 ? why + prefix : NULL;
}

double matmul_flop(struct matmul_shape shape)
{
    return 2.0 * shape.rows * (double)shape.cols * shape.inner;
}

double matmul_min_bytes(const struct matmul_variant *v, struct matmul_shape shape)
{
    double rows = shape.rows, cols = shape.cols, inner = shape.inner;
    return (rows * inner + inner * cols + rows * cols) * (double)matmul_element_size(v->precision);
}
