/*
 * tma_wgmma: Hopper's own path from global memory to the tensor cores. Two changes from cp_async, both the
 * hardware doing what threads did:
 *   - TMA: one thread issues a bulk tensor copy per tile (cp.async.bulk.tensor, UTMALDG in SASS) that moves a
 *     whole 128 x 64 tile of M or 64 x 64 box of N, computes the addresses, zero-fills past the matrix's edge and
 *     writes the 128-byte swizzle (ldmatrix_swizzled's pattern) on the way; its completion is counted in bytes on
 *     an mbarrier (SYNCS in SASS), which the consumers wait on by phase parity.
 *   - wgmma (sm_90a): a warpgroup (4 warps) multiplies 64 x 128 x 16 per instruction (HGMMA.64x128x16.F32.BF16),
 *     reading both operands straight from the swizzled shared tiles through matrix descriptors: no ldmatrix, no
 *     fragments in registers but the FP32 accumulators; it runs asynchronously (wgmma.commit_group/wait_group).
 * A block is two warpgroups (128 x 128 of P, 64 x 128 each) over a ring of TW_STAGES = 4 k-tiles of 32 KB. At the
 * top of each k-tile a barrier says everyone is done with tile t-1, thread 0 refills its slot with tile t+3, and
 * every thread waits on tile t's mbarrier; there is no producer: every warp computes.
 *
 * Counters that should move against cp_async: LDGSTS and LDSM gone (UTMALDG, HGMMA), shared load wavefronts from
 * LSU ~0 (wgmma reads shared memory outside the LSU pipe), tensor operations by family: hmma -> hgmma (sm__ops_
 * path_tensor_op_hgmma_src_bf16_dst_fp32), issue slots per tensor operation down about 8x, tensor pipe busy up.
 *
 * Bounds: inner and cols multiples of 8 (TMA's 16-byte global strides), else refused; TMA zero-fills tiles past
 * the edge and the stores are guarded, so any such shape is computed exactly.
 */
#include "tensor_hopper.cuh"

static const int A_BYTES = TW_BM * TW_BK * 2, B_BYTES = TW_BK * TW_BN * 2, STAGE_BYTES = A_BYTES + B_BYTES;
static const size_t SMEM_BYTES = (size_t)TW_STAGES * STAGE_BYTES + 1024; /* + 1024: the swizzle's alignment */

__global__ void __launch_bounds__(TW_THREADS, 1)
    tma_wgmma_kernel(const __grid_constant__ CUtensorMap map_m, const __grid_constant__ CUtensorMap map_n,
                     __nv_bfloat16 *__restrict__ P, struct matmul_shape shape)
{
#ifdef MEMSCOPE_SM90A
    extern __shared__ uint8_t raw[];
    __shared__ __align__(8) uint64_t full[TW_STAGES];
    uint8_t *ring = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
    const int tid = threadIdx.x, wg = tid / 128, row0 = blockIdx.y * TW_BM, col0 = blockIdx.x * TW_BN;
    const int k_tiles = (shape.inner + TW_BK - 1) / TW_BK;
    if (tid == 0) {
        for (int s = 0; s < TW_STAGES; ++s)
            mbar_init(&full[s], 1);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    /* k-tile t into its slot: the A tile and two 64-column boxes of B, 32 KB counted on the slot's barrier */
    auto issue = [&](int t) {
        uint8_t *a = ring + (t % TW_STAGES) * STAGE_BYTES;
        uint64_t *bar = &full[t % TW_STAGES];
        mbar_expect_bytes(bar, STAGE_BYTES);
        tma_load(a, &map_m, bar, t * TW_BK, row0);
        for (int j = 0; j < TW_BN / 64; ++j)
            tma_load(a + A_BYTES + j * 8192, &map_n, bar, col0 + 64 * j, t * TW_BK);
    };
    __syncthreads();
    if (tid == 0)
        for (int t = 0; t < TW_STAGES - 1 && t < k_tiles; ++t)
            issue(t);
    float d[64] = {};
    for (int t = 0; t < k_tiles; ++t) {
        __syncthreads(); /* everyone is done with tile t-1: its slot may be refilled */
        if (tid == 0 && t + TW_STAGES - 1 < k_tiles)
            issue(t + TW_STAGES - 1);
        mbar_wait(&full[t % TW_STAGES], (t / TW_STAGES) & 1);
        const __nv_bfloat16 *a = (const __nv_bfloat16 *)(ring + (t % TW_STAGES) * STAGE_BYTES) + wg * 64 * TW_BK;
        const __nv_bfloat16 *b = (const __nv_bfloat16 *)(ring + (t % TW_STAGES) * STAGE_BYTES + A_BYTES);
        wgmma_fence();
#pragma unroll
        for (int ks = 0; ks < TW_BK / 16; ++ks)
            wgmma_m64n128k16(d, a_desc(a, ks), b_desc(b, ks), t > 0 || ks > 0);
        wgmma_commit();
        wgmma_wait<0>();
    }
    store_wgmma_tile<TW_BN>(P, shape, row0 + wg * 64, col0, d);
#else
    (void)map_m, (void)map_n, (void)P, (void)shape;
#endif
}

extern "C" const char *matmul_tma_wgmma(const struct matmul_operands *o, dim3 grid, dim3 block)
{
#ifndef MEMSCOPE_SM90A
    (void)o, (void)grid, (void)block;
    return MATMUL_REFUSED TENSOR_NOT_SM90A;
#else
    if (!tensor_shape_matches(grid, block, o->shape, TW_BM, TW_BN, TW_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    if (!tensor_rows_aligned(o))
        return TENSOR_REFUSED_ALIGNMENT;
    struct tensor_maps *maps;
    const char *why = tensor_maps_for(o, TW_BM, &maps);
    if (why)
        return why;
    cudaError_t rc = cudaFuncSetAttribute(tma_wgmma_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SMEM_BYTES);
    if (rc != cudaSuccess)
        return cudaGetErrorString(rc);
    tma_wgmma_kernel<<<grid, block, SMEM_BYTES, o->stream>>>(maps->m, maps->n, (__nv_bfloat16 *)o->p, o->shape);
    return launch_status();
#endif
}

MATMUL_KERNEL(matmul_tma_wgmma_kernel, tma_wgmma_kernel, SMEM_BYTES)
