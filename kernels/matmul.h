/*
 * Matrix-multiplication variants: P = M x N for square Width x Width matrices.
 *
 * The registry (matmul_registry.c) is the one table the harness reads. Adding a
 * variant is one kernel file and one row there. A kernel knows nothing of the
 * harness: it is handed device pointers and a launch shape and reports whether
 * the launch was accepted.
 */
#ifndef MEMSCOPE_MATMUL_H
#define MEMSCOPE_MATMUL_H

#include <stddef.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum matmul_precision { MATMUL_FP32, MATMUL_FP64 };

/* Storage order of the three matrices, as each variant expects them. */
enum matmul_layout {
    MATMUL_ROW_MAJOR,   /* M, N and P row-major */
    MATMUL_N_COL_MAJOR, /* M and P row-major, N column-major (corner turning) */
    MATMUL_COL_MAJOR,   /* M, N and P column-major */
};

struct matmul_operands {
    const void *m;
    const void *n;
    void *p;
    int width;
    cudaStream_t stream;
    cublasHandle_t cublas; /* used by the library variants only */
};

/* Returns NULL when the work was enqueued, else a static description of why not. */
typedef const char *(*matmul_launch_fn)(const struct matmul_operands *ops, dim3 grid, dim3 block);
/* The __global__ function the launcher starts and the dynamic shared memory it gives each block, so that the
 * harness can ask the device about the kernel's resources. */
typedef const void *(*matmul_kernel_fn)(size_t *dynamic_smem_bytes);

struct matmul_variant {
    const char *name;
    enum matmul_precision precision;
    enum matmul_layout layout;
    const char *description;
    unsigned block_x, block_y; /* threads per block; 0 when a library chooses */
    unsigned tile_x, tile_y;   /* P elements one block covers along grid x and grid y */
    matmul_launch_fn launch;
    matmul_kernel_fn kernel;   /* NULL for the library variants */
};

const struct matmul_variant *matmul_variants(size_t *count);
const struct matmul_variant *matmul_find(const char *name);
/* A variant's step on the FP32 ladder (1 for the first), or 0 when it is not on the ladder. */
int matmul_ladder_step(const char *name);

dim3 matmul_grid(const struct matmul_variant *v, int width);
dim3 matmul_block(const struct matmul_variant *v);

size_t matmul_element_size(enum matmul_precision precision);
const char *matmul_precision_name(enum matmul_precision precision);
const char *matmul_layout_name(enum matmul_layout layout);

/* Work model: 2*W^3 floating-point operations; at least M and N read once and P written once. */
double matmul_flop(int width);
double matmul_min_bytes(const struct matmul_variant *v, int width);

/* Launchers, one per registry row. */
const char *matmul_naive_fp32(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_naive_fp64(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_naive_uncoalesced(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_tiled_16(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_tiled_32(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_tiled_32_fp64(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_tiled_corner_turning(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_tiled_transposed(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_tiled_transposed_padded(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_colmajor_padded_fp64(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_blocktiled_1d(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_blocktiled_2d(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_vectorized(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_vectorized_padded(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_warptiled(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_pipelined(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_rasterized(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_large_tiles(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_halfwarp_lanes(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_icache_fit(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_cublas_sgemm(const struct matmul_operands *ops, dim3 grid, dim3 block);
const char *matmul_cublas_dgemm(const struct matmul_operands *ops, dim3 grid, dim3 block);

/* The kernels those launchers start, one accessor per registry row (MATMUL_KERNEL in launch_status.cuh). */
const void *matmul_naive_fp32_kernel(size_t *dynamic_smem_bytes);
const void *matmul_naive_fp64_kernel(size_t *dynamic_smem_bytes);
const void *matmul_naive_uncoalesced_kernel(size_t *dynamic_smem_bytes);
const void *matmul_tiled_16_kernel(size_t *dynamic_smem_bytes);
const void *matmul_tiled_32_kernel(size_t *dynamic_smem_bytes);
const void *matmul_tiled_32_fp64_kernel(size_t *dynamic_smem_bytes);
const void *matmul_tiled_corner_turning_kernel(size_t *dynamic_smem_bytes);
const void *matmul_tiled_transposed_kernel(size_t *dynamic_smem_bytes);
const void *matmul_tiled_transposed_padded_kernel(size_t *dynamic_smem_bytes);
const void *matmul_colmajor_padded_fp64_kernel(size_t *dynamic_smem_bytes);
const void *matmul_blocktiled_1d_kernel(size_t *dynamic_smem_bytes);
const void *matmul_blocktiled_2d_kernel(size_t *dynamic_smem_bytes);
const void *matmul_vectorized_kernel(size_t *dynamic_smem_bytes);
const void *matmul_vectorized_padded_kernel(size_t *dynamic_smem_bytes);
const void *matmul_warptiled_kernel(size_t *dynamic_smem_bytes);
const void *matmul_pipelined_kernel(size_t *dynamic_smem_bytes);
const void *matmul_rasterized_kernel(size_t *dynamic_smem_bytes);
const void *matmul_large_tiles_kernel(size_t *dynamic_smem_bytes);
const void *matmul_halfwarp_lanes_kernel(size_t *dynamic_smem_bytes);
const void *matmul_icache_fit_kernel(size_t *dynamic_smem_bytes);

/* The cuBLAS variants promise true FP32/FP64: a handle must be configured once before use. */
const char *matmul_cublas_configure(cublasHandle_t handle);

#ifdef __cplusplus
}
#endif

#endif
