/*
 * scheduled_wgmma_gemm: a bf16 GEMM of our own in the shape of the GEMMs frameworks run (cuDNN's attention, CUTLASS's
 * persistent kernels): TMA loads into a ring of mbarrier stages, a producer warpgroup and two wgmma consumers, and a
 * dynamic tile scheduler, each block taking its tile from a global ticket counter, one atomicAdd a block. It is the
 * tensor ladder's warp_specialized kernel (kernels/tensor_ladder/tensor_ws.cuh, TICKETED) at PATHOLOGY_GEMM_WIDTH on
 * src and dst as cublas_bf16_gemm: 512 blocks of 128 x 256 outputs, 512 atomics on one word beside 137 G tensor
 * operations. The tensor pipe bounds it; the atomics are the trap (issue 47: an atomic rule that weighed a TMA
 * kernel's few atomics against its few LSU requests called them contention).
 */
#include "../tensor_ladder/tensor_ws.cuh"
#include "pathology.h"

extern "C" const char *pathology_scheduled_wgmma_gemm(const struct pathology_buffers *b, cudaStream_t stream)
{
    const size_t matrix_floats = (size_t)PATHOLOGY_GEMM_WIDTH * PATHOLOGY_GEMM_WIDTH / 2;
    const struct matmul_operands o = {b->src, b->src + matrix_floats, b->dst, matmul_square(PATHOLOGY_GEMM_WIDTH),
                                      stream, NULL};
    const dim3 grid(PATHOLOGY_GEMM_WIDTH / WS_BN, PATHOLOGY_GEMM_WIDTH / WS_BM), block(WS_THREADS);
    return launch_ws_gemm<false, false, false, false, WS_BN, 2, true>(&o, grid, block, b->counter);
}
