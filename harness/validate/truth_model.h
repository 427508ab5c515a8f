/*
 * What the ground-truth kernels' metrics must be, computed from their address
 * patterns alone (32-byte sectors; 32 banks of 4 bytes; a wavefront serves at
 * most one word per bank and 128 bytes), independently of any measurement.
 */
#ifndef MEMSCOPE_TRUTH_MODEL_H
#define MEMSCOPE_TRUTH_MODEL_H

/* out[i] = in[i * stride + offset], n threads in warps of 32: mean sectors per load request. */
double model_copy_sectors_per_request(int n, int stride, int offset);
/* Bytes the threads asked for over bytes the sectors carried, in percent. */
double model_copy_load_efficiency(int n, int stride, int offset);
/* Wavefronts one warp-wide shared access needs when lane i reads element i * stride of elem_bytes each. */
int model_shared_wavefronts(int stride, int elem_bytes);
/* Wavefronts of one ldmatrix.x4 (four 8 x 16-byte matrices) over a tile of rows pitch_bytes apart, its 16-byte
 * chunks XOR-swizzled by row where swizzled (kernels/truth/truth_ldmatrix.cu): 4 without conflicts. */
int model_ldmatrix_x4_wavefronts(int pitch_bytes, int swizzled);

/* Tensor operations (2 per multiply-add) of warps x repetitions mma.sync.m16n8k16: 2 x 16 x 8 x 16 = 4096 each. */
double model_mma_m16n8k16_ops(int warps, int repetitions);
/* Tensor operations of an m x n x k GEMM by a kernel whose tiles are tile_m x tile_n x tile_k: each dimension padded
 * up to a whole number of tiles, 2 x M' x N' x K' (2 x m x n x k where the tiles divide the shape). */
double model_gemm_tensor_ops(int m, int n, int k, int tile_m, int tile_n, int tile_k);
/* The tile of the cuBLAS kernel that computed a row-major m x n x k GEMM, as the kernel's name gives it: 1 when it
 * does. cuBLAS is column-major, so the suite computes P^T = N^T x M^T (kernels/truth/truth_gemm.c): cuBLAS's M is
 * the caller's n. nvjet kernels name cuBLAS's tile ("nvjet_sm90_tst_192x128_64x5_...": 192 along cuBLAS's M, 128
 * along its N, k by 64); sm90 xmma kernels name theirs "tilesize64x128x32", m first in the caller's terms. Those
 * orders are the ones the measured counts bear out (docs/metrics.md, "Tensor ground truth"). */
int model_cublas_tile(const char *kernel, int *tile_m, int *tile_n, int *tile_k);

#endif
