/*
 * cublas, cublas_fp64: the library reference every hand-written variant is
 * measured against; cublas_bf16, cublas_fp16, cublas_tf32: the tensor-core
 * anchors. cuBLAS is column-major; a row-major P = M x N is the
 * column-major P^T = N^T x M^T, so the operands are passed swapped and no
 * transpose is needed: a cols x rows product over inner, N^T's leading
 * dimension cols, M^T's inner. The handle is pinned to CUBLAS_DEFAULT_MATH so that
 * SGEMM stays true FP32 (no TF32 tensor-core shortcut); the tensor rows ask
 * for tensor cores by their compute type, with the default algorithm.
 */
#include "../matmul.h"

static const char *cublas_status(cublasStatus_t status)
{
    return status == CUBLAS_STATUS_SUCCESS ? NULL : cublasGetStatusString(status);
}

const char *matmul_cublas_configure(cublasHandle_t handle)
{
    return cublas_status(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
}

const char *matmul_cublas_sgemm(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    (void)grid;
    (void)block;
    const float one = 1.0f, zero = 0.0f;
    const struct matmul_shape s = o->shape;
    return cublas_status(cublasSgemm(o->cublas, CUBLAS_OP_N, CUBLAS_OP_N, s.cols, s.rows, s.inner, &one,
                                     (const float *)o->n, s.cols, (const float *)o->m, s.inner, &zero,
                                     (float *)o->p, s.cols));
}

const char *matmul_cublas_dgemm(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    (void)grid;
    (void)block;
    const double one = 1.0, zero = 0.0;
    const struct matmul_shape s = o->shape;
    return cublas_status(cublasDgemm(o->cublas, CUBLAS_OP_N, CUBLAS_OP_N, s.cols, s.rows, s.inner, &one,
                                     (const double *)o->n, s.cols, (const double *)o->m, s.inner, &zero,
                                     (double *)o->p, s.cols));
}

/* P = M x N with cublasGemmEx: inputs and output of one type, FP32 scaling factors (the compute types here are
 * FP32 ones). */
static const char *gemm_ex(const struct matmul_operands *o, cudaDataType type, cublasComputeType_t compute)
{
    const float one = 1.0f, zero = 0.0f;
    const struct matmul_shape s = o->shape;
    return cublas_status(cublasGemmEx(o->cublas, CUBLAS_OP_N, CUBLAS_OP_N, s.cols, s.rows, s.inner, &one, o->n, type,
                                      s.cols, o->m, type, s.inner, &zero, o->p, type, s.cols, compute,
                                      CUBLAS_GEMM_DEFAULT));
}

const char *matmul_cublas_bf16(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    (void)grid;
    (void)block;
    return gemm_ex(o, CUDA_R_16BF, CUBLAS_COMPUTE_32F);
}

const char *matmul_cublas_fp16(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    (void)grid;
    (void)block;
    return gemm_ex(o, CUDA_R_16F, CUBLAS_COMPUTE_32F);
}

const char *matmul_cublas_tf32(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    (void)grid;
    (void)block;
    return gemm_ex(o, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32);
}
