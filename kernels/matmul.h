/*
 * Matrix-multiplication variants: P = M x N, P rows x cols, M rows x inner, N inner x cols (struct matmul_shape).
 *
 * The registry (matmul_registry.c) is the one list the harness reads, built
 * from the table in matmul_registry.h. Adding a variant is one kernel file and
 * one row of that table. A kernel knows nothing of the harness: it is handed
 * device pointers and a launch shape and reports whether the launch was accepted.
 */
#ifndef MEMSCOPE_MATMUL_H
#define MEMSCOPE_MATMUL_H

#include <stddef.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "matmul_registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/* bf16, fp16: M, N and P stored in that type (P as torch.matmul gives it), FP32 accumulation on tensor cores;
 * tf32: M, N and P stored as float, tensor-core math on inputs rounded to tf32 (10 explicit mantissa bits). */
enum matmul_precision { MATMUL_FP32, MATMUL_FP64, MATMUL_BF16, MATMUL_FP16, MATMUL_TF32 };

/* Storage order of the three matrices, as each variant expects them. */
enum matmul_layout {
    MATMUL_ROW_MAJOR,   /* M, N and P row-major */
    MATMUL_N_COL_MAJOR, /* M and P row-major, N column-major (corner turning) */
    MATMUL_COL_MAJOR,   /* M, N and P column-major */
};

/* A product's shape: P (rows x cols) = M (rows x inner) x N (inner x cols), BLAS's M x N x K. A square product of
 * width W is W x W x W. */
struct matmul_shape {
    int rows, cols, inner;
};

static inline struct matmul_shape matmul_square(int width)
{
    struct matmul_shape s = {width, width, width};
    return s;
}

static inline int matmul_is_square(struct matmul_shape s)
{
    return s.rows == s.cols && s.cols == s.inner;
}

struct matmul_operands {
    const void *m;
    const void *n;
    void *p;
    struct matmul_shape shape;
    cudaStream_t stream;
    cublasHandle_t cublas; /* used by the library variants only */
};

/* Returns NULL when the work was enqueued, else a static description of why not. A launcher that cannot take the
 * shape at all (an alignment the hardware needs, a tile the shape does not fill) says so before touching the GPU,
 * with a reason that starts with MATMUL_REFUSED: the run records the variant as refused at that shape, with the
 * reason, and goes on; any other reason is an error. */
#define MATMUL_REFUSED "refused: "
/* A launcher's reason past MATMUL_REFUSED where it refused, NULL where it enqueued the work or failed. */
const char *matmul_refusal(const char *why);
/* The reason of a kernel written for square matrices: it indexes all three by one width. */
#define MATMUL_REFUSED_NOT_SQUARE MATMUL_REFUSED "square products only (the kernel indexes M, N and P by one width)"
typedef const char *(*matmul_launch_fn)(const struct matmul_operands *ops, dim3 grid, dim3 block);
/* The __global__ function the launcher starts at a shape and the dynamic shared memory it gives each block, so that
 * the harness can ask the device about the kernel's resources (a launcher may choose its kernel by the shape; NULL
 * when it could not ask the device which). threads holds the row's block_x x block_y when called; a launcher that
 * chooses its block by the shape too sets the threads of the block it launches. */
typedef const void *(*matmul_kernel_fn)(struct matmul_shape shape, size_t *dynamic_smem_bytes, unsigned *threads);

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
/* Its step on the bf16 tensor-core ladder likewise (kernels/tensor_ladder/ to cublas_bf16), or 0. */
int matmul_tensor_ladder_step(const char *name);

/* Blocks of tile_x x tile_y covering P: tile_x along its columns (grid x), tile_y along its rows (grid y). */
dim3 matmul_grid(const struct matmul_variant *v, struct matmul_shape shape);
dim3 matmul_block(const struct matmul_variant *v);

size_t matmul_element_size(enum matmul_precision precision);
const char *matmul_precision_name(enum matmul_precision precision);
const char *matmul_layout_name(enum matmul_layout layout);

/* Work model: 2 x rows x cols x inner floating-point operations; at least M and N read once and P written once. */
double matmul_flop(struct matmul_shape shape);
double matmul_min_bytes(const struct matmul_variant *v, struct matmul_shape shape);

/* Each row's launcher and, for a kernel row, the accessor of the kernel it starts (MATMUL_KERNEL in
 * launch_status.cuh), declared from the table so that a kernel file's definitions are checked against it. */
#define MATMUL_DECLARE_LAUNCHER(launcher)                                                                            \
    const char *launcher(const struct matmul_operands *ops, dim3 grid, dim3 block);
#define MATMUL_DECLARE_KERNEL_ROW(name, launcher, ...)                                                               \
    MATMUL_DECLARE_LAUNCHER(launcher)                                                                                \
    const void *launcher##_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes, unsigned *threads);
#define MATMUL_DECLARE_LIBRARY_ROW(name, launcher, ...) MATMUL_DECLARE_LAUNCHER(launcher)
MATMUL_VARIANTS(MATMUL_DECLARE_KERNEL_ROW, MATMUL_DECLARE_LIBRARY_ROW)
#undef MATMUL_DECLARE_LIBRARY_ROW
#undef MATMUL_DECLARE_KERNEL_ROW
#undef MATMUL_DECLARE_LAUNCHER

/* The cuBLAS variants promise true FP32/FP64 (tensor-core math only where a variant asks for it by its compute
 * type): a handle must be configured once before use. */
const char *matmul_cublas_configure(cublasHandle_t handle);

#ifdef __cplusplus
}
#endif

#endif
