/*
 * Tensor-core ground truth through cuBLAS: one GEMM of a given shape and type, P (m x n) = M (m x k) x N (k x n),
 * row-major, with cublasGemmEx, its default algorithm and FP32 accumulation (bf16 and fp16 out in their own type,
 * tf32 on floats with CUBLAS_COMPUTE_32F_FAST_TF32), as the suite's cublas_bf16, cublas_fp16 and cublas_tf32 call
 * it. cuBLAS chooses the kernel, and with it how far the shape is padded to its tile.
 */
#include "truth.h"

const char *truth_cublas_gemm(cublasHandle_t handle, enum truth_tensor_type type, int m, int n, int k,
                              const void *a, const void *b, void *p)
{
    static const cudaDataType data[] = {[TRUTH_BF16] = CUDA_R_16BF, [TRUTH_FP16] = CUDA_R_16F,
                                        [TRUTH_TF32] = CUDA_R_32F};
    cublasComputeType_t compute = type == TRUTH_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    const float one = 1.0f, zero = 0.0f;
    /* Column-major P^T (n x m) = N^T (n x k) x M^T (k x m): the row-major operands, swapped. */
    cublasStatus_t status = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, data[type], n, a,
                                         data[type], k, &zero, p, data[type], n, compute, CUBLAS_GEMM_DEFAULT);
    return status == CUBLAS_STATUS_SUCCESS ? NULL : cublasGetStatusString(status);
}
