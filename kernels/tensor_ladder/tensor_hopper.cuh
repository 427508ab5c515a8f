/*
 * Hopper's matrix machinery for the rungs from tma_wgmma on, in inline PTX: mbarriers (arrival counts and
 * transaction bytes), TMA bulk tensor copies (cp.async.bulk.tensor: loads that complete on an mbarrier, multicast
 * to the CTAs of a cluster, and stores), wgmma (sm_90a) with its shared-memory matrix descriptors, and setmaxnreg.
 * Host side: the tensor maps, made with the driver's cuTensorMapEncodeTiled reached through the runtime
 * (cudaGetDriverEntryPointByVersion), so that no binary links -lcuda and every one starts without a driver.
 *
 * The tiles. Every tile of M and N is copied by TMA with the 128-byte swizzle: a box 64 bf16 (128 bytes) wide, its
 * row r stored at r * 128 bytes with its 16-byte chunk c at c ^ (r % 8) -- ldmatrix_swizzled's pattern, which wgmma
 * reads natively. A k-tile is 64 deep (TL_BK):
 *   A (M, K-major): one box of BM rows x 64 k; wgmma's descriptor: 128B swizzle, 8-row groups 1024 bytes apart
 *     (stride byte offset), a k-step of 16 = 32 bytes further along the row.
 *   B (N, row-major: N-major for wgmma, so imm-trans-b = 1): BN / 64 boxes of 64 k x 64 n, box j at j x 8192
 *     bytes; descriptor: 128B swizzle, 64-column blocks 8192 bytes apart (leading byte offset), 8-row groups of k
 *     1024 bytes apart (stride byte offset), a k-step of 16 = 16 rows = 2048 bytes further.
 *   A tile of P^T (fitted_tiles' 144 x 128) swaps the roles: wgmma's A is a 64-column box of N (M-major for it,
 *     imm-trans-a = 1, b_desc's layout) and its B the tile's rows of M (K-major, a_desc's layout), so that the
 *     tile's 144 rows are a wgmma's N in whole 8-row groups.
 * Out-of-bounds boxes are zero-filled by TMA on load and clipped on store, so any shape whose rows are 16-byte
 * aligned (inner and cols multiples of 8: TMA's global strides must be multiples of 16 bytes) is computed exactly.
 */
#ifndef MEMSCOPE_TENSOR_HOPPER_CUH
#define MEMSCOPE_TENSOR_HOPPER_CUH

#include <cuda.h>
#include <cudaTypedefs.h>

#include "../wgmma_operands.cuh"
#include "tensor_common.cuh"

#define TL_BK 64
#define TENSOR_NOT_SM90A                                                                                           \
    "built without sm_90a (wgmma, setmaxnreg): make CUDA_ARCH=90 builds this rung for Hopper"

/* The three tensor maps of one launch: M and N for loads, P for the TMA store. */
struct tensor_maps {
    CUtensorMap m, n, p;
};

/* Maps for M (rows x inner) and N (inner x cols) (128B swizzle, boxes of 64 x a_rows and 64 x 64) and P (rows x
 * cols, boxes of 64 x 64, 128B swizzle), kept for the last operands, shape and A box seen: a timed loop launches
 * with the same buffers again and again (and a buffer freed may come back at the same address to a kernel of other
 * tiles). NULL, or why not. */
static inline const char *tensor_maps_for(const struct matmul_operands *o, unsigned a_rows, struct tensor_maps **out)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode;
    static struct tensor_maps maps;
    static const void *m, *n, *p;
    static struct matmul_shape shape;
    static unsigned rows;
    if (!encode) {
        cudaDriverEntryPointQueryResult found;
        cudaError_t rc = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000,
                                                          cudaEnableDefault, &found);
        if (rc != cudaSuccess || found != cudaDriverEntryPointSuccess) {
            encode = NULL;
            return rc != cudaSuccess ? cudaGetErrorString(rc) : "the driver has no cuTensorMapEncodeTiled";
        }
    }
    *out = &maps;
    const struct matmul_shape s = o->shape;
    if (m == o->m && n == o->n && p == o->p && shape.rows == s.rows && shape.cols == s.cols &&
        shape.inner == s.inner && rows == a_rows)
        return NULL;
    /* each matrix's extents, its columns (the contiguous dimension) first, and its row stride in bytes */
    const cuuint64_t dims[3][2] = {{(cuuint64_t)s.inner, (cuuint64_t)s.rows},
                                   {(cuuint64_t)s.cols, (cuuint64_t)s.inner},
                                   {(cuuint64_t)s.cols, (cuuint64_t)s.rows}};
    const cuuint64_t strides[3][1] = {{(cuuint64_t)s.inner * 2}, {(cuuint64_t)s.cols * 2}, {(cuuint64_t)s.cols * 2}};
    const cuuint32_t a_box[2] = {64, a_rows}, box[2] = {64, 64}, unit[2] = {1, 1};
    const CUtensorMapDataType bf16 = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    const void *operand[3] = {o->m, o->n, o->p};
    CUtensorMap *map[3] = {&maps.m, &maps.n, &maps.p};
    for (int i = 0; i < 3; ++i)
        if (encode(map[i], bf16, 2, (void *)operand[i], dims[i], strides[i], i == 0 ? a_box : box, unit,
                   CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) {
            m = NULL;
            return "cuTensorMapEncodeTiled refused a tensor map";
        }
    m = o->m, n = o->n, p = o->p, shape = s, rows = a_rows;
    return NULL;
}

#ifdef MEMSCOPE_SM90A

__device__ __forceinline__ uint32_t smem(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem(bar)), "r"(count));
}

/* This thread's arrival, announcing the bytes the phase's copies will bring. */
__device__ __forceinline__ void mbar_expect_bytes(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem(bar)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem(bar)) : "memory");
}

/* An arrival on the barrier at the same place in CTA `cta` of the cluster (this one included). The default
 * .release.cta semantics, as CUTLASS's ClusterBarrier: what the arrival announces (the wgmma reads of a slot are
 * over) is already complete when it is made, so no cluster-scope release has to order anything before it. */
__device__ __forceinline__ void mbar_arrive_cluster(uint64_t *bar, unsigned cta)
{
    asm volatile("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(smem(bar)),
                 "r"(cta)
                 : "memory");
}

/* Wait until the phase of parity `parity` has completed (a fresh barrier's phase -1 counts as parity 1). */
__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity)
{
    asm volatile("{\n.reg .pred done;\nwait:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait;\n}\n" ::"r"(smem(bar)),
                 "r"(parity)
                 : "memory");
}

/* One box of a 2D tensor map at element (x, y) = (column, row) into shared memory, completing on bar. */
__device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *map, uint64_t *bar, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(smem(dst)),
                 "l"(map), "r"(smem(bar)), "r"(x), "r"(y)
                 : "memory");
}

/* The same box into the same place of every CTA of the cluster in `ctas` (a bit mask), each completing on its own
 * barrier at bar's place. */
__device__ __forceinline__ void tma_load_multicast(void *dst, const CUtensorMap *map, uint64_t *bar, int x, int y,
                                                   uint16_t ctas)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(smem(dst)),
                 "l"(map), "r"(smem(bar)), "r"(x), "r"(y), "h"(ctas)
                 : "memory");
}

/* One box from shared memory to the tensor at (x, y), clipped at its edges; completion by bulk group. */
__device__ __forceinline__ void tma_store(const CUtensorMap *map, const void *src, int x, int y)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(map),
                 "r"(smem(src)), "r"(x), "r"(y)
                 : "memory");
}

__device__ __forceinline__ void tma_store_commit(void)
{
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

/* Until all but the PENDING most recent store groups have read their shared memory (it may be written again). */
template <int PENDING> __device__ __forceinline__ void tma_store_wait_read(void)
{
    asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(PENDING) : "memory");
}

/* Two FP32 values rounded to a bf16 pair in one register, x in the low half (the lower column). */
__device__ __forceinline__ uint32_t bf16_pair(float x, float y)
{
    const __nv_bfloat162 v = __floats2bfloat162_rn(x, y);
    return (uint32_t)__bfloat16_as_ushort(v.y) << 16 | __bfloat16_as_ushort(v.x);
}

/* Four 8 x 8 bf16 matrices to shared memory (one STSM.16.M88.4): lane l gives the address of row l % 8 of matrix
 * l / 8, and register i of every lane its pair of matrix i, (lane / 4, 2 (lane % 4)..+1): ldmatrix's layout, which
 * is also the layout of a wgmma accumulator's 8 x 8 blocks once rounded to bf16 pairs. */
__device__ __forceinline__ void stmatrix_x4(void *row, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3)
{
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(smem(row)), "r"(r0),
                 "r"(r1), "r"(r2), "r"(r3)
                 : "memory");
}

/* The same, each matrix stored transposed (STSM.16.MT88.4): lane l gives the address of row l % 8 of matrix l / 8,
 * which receives column l % 8 of the matrix as the registers hold it. */
__device__ __forceinline__ void stmatrix_x4_trans(void *row, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3)
{
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(smem(row)), "r"(r0),
                 "r"(r1), "r"(r2), "r"(r3)
                 : "memory");
}

/* Ordinary shared-memory writes made visible to the async proxy (TMA, wgmma) that reads them next. */
__device__ __forceinline__ void fence_proxy_async(void)
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

__device__ __forceinline__ void cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

__device__ __forceinline__ unsigned cluster_rank(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

/* A barrier among the `threads` threads (whole warps) that name barrier `id` (0 is __syncthreads'). */
__device__ __forceinline__ void named_barrier(unsigned id, unsigned threads)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

template <unsigned REGS> __device__ __forceinline__ void setmaxnreg_inc(void)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(REGS));
}

template <unsigned REGS> __device__ __forceinline__ void setmaxnreg_dec(void)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(REGS));
}

__device__ __forceinline__ void wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void wgmma_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

template <int PENDING> __device__ __forceinline__ void wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
}

/* Shared-memory matrix descriptors, 128B swizzle (mode 1 in bits 62-63), addresses and offsets in 16-byte units:
 * start in bits 0-13, leading byte offset 16-29, stride byte offset 32-45. */
__device__ __forceinline__ uint64_t sw128_desc(const void *tile, unsigned leading, unsigned stride)
{
    return (uint64_t)((smem(tile) & 0x3FFFF) >> 4) | (uint64_t)(leading >> 4) << 16 | (uint64_t)(stride >> 4) << 32 |
           1ull << 62;
}

/* A k-step (16 of k) moves along a K-major tile 16 bf16 of its 128-byte rows, down an N-major one 16 rows of 128
 * bytes: what a_desc and b_desc add for step ks, and a k-loop's descriptors by adds (tensor_ws.cuh). */
#define TL_A_KSTEP_BYTES (16 * 2)
#define TL_B_KSTEP_BYTES (16 * 128)

/* A's k-step ks (16 of k) of a K-major tile whose rows are 128 bytes: 8-row groups 1024 bytes apart. */
__device__ __forceinline__ uint64_t a_desc(const __nv_bfloat16 *tile, int ks)
{
    return sw128_desc((const uint8_t *)tile + ks * TL_A_KSTEP_BYTES, 16, 1024);
}

/* B's k-step ks of an N-major tile of 64-column boxes, each TL_BK rows of 128 bytes. */
__device__ __forceinline__ uint64_t b_desc(const __nv_bfloat16 *tile, int ks)
{
    return sw128_desc((const uint8_t *)tile + ks * TL_B_KSTEP_BYTES, TL_BK * 128, 1024);
}

/* desc moved by `bytes` in shared memory, its layout kept: the start address is its low 14 bits in 16-byte units,
 * and a CTA's shared addresses (below 2^18) never carry out of them. A k-loop that moves its descriptors by adds,
 * from ones built once, issues a 64-bit add a descriptor, not the mask, shifts and ors that build one. */
__device__ __forceinline__ uint64_t desc_plus(uint64_t desc, unsigned bytes)
{
    return desc + (bytes >> 4);
}

/* One wgmma of bf16 inputs into the wrapper's FP32 accumulators d (wgmma_operands.cuh): of shape SHAPE, d named in
 * TEXT and listed in OUTS, then the wrapper's descriptors a and b and its scale_d, which the operands DESC_A, DESC_B
 * and SCALE_D name; TRANSPOSE is the two immediates that say whether A and B are transposed. scale_d 0 overwrites d. */
#define WGMMA_BF16(SHAPE, TEXT, OUTS, DESC_A, DESC_B, SCALE_D, TRANSPOSE)                                              \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE_D ", 0;\n"                                                  \
                 "wgmma.mma_async.sync.aligned." SHAPE ".f32.bf16.bf16 {" TEXT "}, " DESC_A ", " DESC_B ", p, 1, 1, "  \
                 TRANSPOSE ";\n}\n"                                                                                    \
                 : OUTS                                                                                                \
                 : "l"(a), "l"(b), "r"(scale_d))

/* d (64 x 64, FP32, the warpgroup's fragment layout) += A (64 x 16, K-major, descriptor a) x B (16 x 64,
 * N-major, so transposed: the last immediate, descriptor b); scale_d 0 overwrites d. One HGMMA.64x64x16.F32.BF16. */
__device__ __forceinline__ void wgmma_m64n64k16(float d[32], uint64_t a, uint64_t b, int scale_d)
{
    WGMMA_BF16("m64n64k16", WG_TEXT_0_31, WG_D_0_31, "%32", "%33", "%34", "0, 1");
}

/* d (64 x 128, FP32, the warpgroup's fragment layout) += A (64 x 16, K-major, descriptor a) x B (16 x 128,
 * N-major, so transposed: the last immediate, descriptor b); scale_d 0 overwrites d. One HGMMA.64x128x16.F32.BF16. */
__device__ __forceinline__ void wgmma_m64n128k16(float d[64], uint64_t a, uint64_t b, int scale_d)
{
    WGMMA_BF16("m64n128k16", WG_TEXT_0_63, WG_D_0_63, "%64", "%65", "%66", "0, 1");
}

/* d (64 x 144, FP32, the warpgroup's fragment layout) += A (64 x 16, M-major, so transposed: the first of the two
 * last immediates, descriptor a) x B (16 x 144, K-major, descriptor b): the operands of a tile of P^T (tensor_ws.cuh,
 * TRANSPOSED), A a 64-column box of N and B 144 rows of M. scale_d 0 overwrites d. One HGMMA.64x144x16.F32.BF16. */
__device__ __forceinline__ void wgmma_m64n144k16_transposed_a(float d[72], uint64_t a, uint64_t b, int scale_d)
{
    WGMMA_BF16("m64n144k16", WG_TEXT_0_71, WG_D_0_71, "%72", "%73", "%74", "1, 0");
}

/* d (64 x 192, FP32, the warpgroup's fragment layout) += A (64 x 16, K-major, descriptor a) x B (16 x 192,
 * N-major, so transposed: the last immediate, descriptor b, three 64-column boxes); scale_d 0 overwrites d. One
 * HGMMA.64x192x16.F32.BF16. */
__device__ __forceinline__ void wgmma_m64n192k16(float d[96], uint64_t a, uint64_t b, int scale_d)
{
    WGMMA_BF16("m64n192k16", WG_TEXT_0_95, WG_D_0_95, "%96", "%97", "%98", "0, 1");
}

/* d (64 x 256, FP32, the warpgroup's fragment layout) += A (64 x 16, K-major, descriptor a) x B (16 x 256,
 * N-major, so transposed: the last immediate, descriptor b); scale_d 0 overwrites d. One HGMMA.64x256x16.F32.BF16. */
__device__ __forceinline__ void wgmma_m64n256k16(float d[128], uint64_t a, uint64_t b, int scale_d)
{
    WGMMA_BF16("m64n256k16", WG_TEXT_0_127, WG_D_0_127, "%128", "%129", "%130", "0, 1");
}

#undef WGMMA_BF16

/* The accumulator layout of wgmma m64nN (PTX ISA, "wgmma .m64nNk16 register fragment layout for D"): warp w of
 * the warpgroup holds rows 16 w + lane / 4 and + 8; register 4 j + {0, 1} is (row, 8 j + 2 (lane % 4) + {0, 1}),
 * 4 j + {2, 3} the same columns 8 rows down. A warpgroup's 64 x N outputs straight to P, rounded to bf16. */
template <int N>
__device__ __forceinline__ void store_wgmma_tile(__nv_bfloat16 *P, struct matmul_shape shape, int row0, int col0,
                                                 const float *d)
{
    const int lane = threadIdx.x & 31, row = row0 + ((threadIdx.x >> 5) & 3) * 16 + (lane >> 2);
#pragma unroll
    for (int j = 0; j < N / 8; ++j) {
        const int col = col0 + 8 * j + 2 * (lane & 3);
        store_bf16_pair(P, shape, row, col, d[4 * j], d[4 * j + 1]);
        store_bf16_pair(P, shape, row + 8, col, d[4 * j + 2], d[4 * j + 3]);
    }
}

#endif /* MEMSCOPE_SM90A */

#endif
