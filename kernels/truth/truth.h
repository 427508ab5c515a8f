/*
 * Ground-truth kernels: small kernels whose memory metrics are known in closed
 * form, so that measured counters can be checked before they are trusted.
 * Each launcher returns NULL when the work was enqueued, else a static reason.
 */
#ifndef MEMSCOPE_TRUTH_H
#define MEMSCOPE_TRUTH_H

#include <stdbool.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = in[i * stride + offset] for i < n; one warp reads 32 floats stride apart. */
const char *truth_strided_copy(const float *in, float *out, int n, int stride, int offset, cudaStream_t stream);

/* Each thread reads shared word (lane * stride + r) for r < TRUTH_SHARED_READS: a stride-dependent conflict. */
#define TRUTH_SHARED_READS 64
const char *truth_shared_stride_f32(float *out, int stride, int blocks, cudaStream_t stream);
const char *truth_shared_stride_f64(double *out, int stride, int blocks, cudaStream_t stream);
const char *truth_shared_stride_f128(float4 *out, int stride, int blocks, cudaStream_t stream);

/* out = in^T for a width x width row-major matrix; width a multiple of 32. */
const char *truth_transpose_naive(const float *in, float *out, int width, cudaStream_t stream);
const char *truth_transpose_shared(const float *in, float *out, int width, bool padded, cudaStream_t stream);

/* Each of blocks x warps_per_block warps runs repetitions mma.sync.m16n8k16 bf16 -> f32 (4096 operations each);
 * out holds one float per thread. */
const char *truth_mma_bf16(float *out, int blocks, int warps_per_block, int repetitions, cudaStream_t stream);

/* Each of blocks x warps_per_block warps runs repetitions ldmatrix.x4 over a shared tile of 128-byte rows (unpadded),
 * 144-byte rows (padded) or 128-byte rows with 16-byte chunks XOR-swizzled by row; out holds one float per thread. */
enum truth_ldmatrix_layout { TRUTH_LDMATRIX_UNPADDED, TRUTH_LDMATRIX_PADDED, TRUTH_LDMATRIX_SWIZZLED };
const char *truth_ldmatrix(float *out, enum truth_ldmatrix_layout layout, int blocks, int warps_per_block,
                           int repetitions, cudaStream_t stream);

/* P (m x n) = M (m x k) x N (k x n), row-major, by cublasGemmEx on the handle's stream: bf16 and fp16 in and out,
 * tf32 on floats; FP32 accumulation, the default algorithm. NULL when enqueued, else cuBLAS's reason. */
enum truth_tensor_type { TRUTH_BF16, TRUTH_FP16, TRUTH_TF32 };
const char *truth_cublas_gemm(cublasHandle_t handle, enum truth_tensor_type type, int m, int n, int k,
                              const void *a, const void *b, void *p);

#ifdef __cplusplus
}
#endif

#endif
