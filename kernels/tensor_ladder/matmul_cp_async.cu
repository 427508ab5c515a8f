/*
 * cp_async: ldmatrix_swizzled's tiles and fragment loop, fed by a multistage cp.async pipeline. In the rungs below
 * a k-tile goes global -> registers -> shared memory, then a barrier, then the mma.sync: while a block waits for
 * its loads, only other resident blocks keep the tensor pipe busy. Here TS_STAGES = 4 k-tiles (4 x 32 KB of
 * dynamic shared memory, one block per SM) form a ring filled with cp.async.cg (Ampere's asynchronous copy:
 * 16 bytes global -> shared without registers, completion tracked per thread in commit groups). While the warps
 * compute on tile t, the copies of tiles t+1 .. t+3 are in flight. At the top of each iteration a thread waits for
 * its own copies of tile t (cp.async.wait_group STAGES-2), one barrier makes everyone's copies visible and
 * guarantees that everyone has finished tile t-1, whose slot is then refilled with tile t+STAGES-1: one barrier a
 * k-tile instead of two. The swizzle keeps ldmatrix conflict-free (4 wavefronts per LDSM).
 *
 * Counters that should move against ldmatrix_swizzled: global load (LDG) and shared store (STS) instructions gone
 * (LDGSTS instead), barriers per k-tile 2 -> 1, long-scoreboard and barrier stalls down, tensor pipe busy up;
 * shared memory 32 KB -> 128 KB a block (occupancy one block of 8 warps per SM, from several).
 *
 * Bounds: inner and cols multiples of 8, else refused; a chunk past the edge is a cp.async with a source size of
 * 0, which writes 16 zero bytes (its source address clamped to the matrix's start, never read).
 */
#include "tensor_common.cuh"

static const int STAGE_ELEMS = tile_layout<swizzled_layout>::A_ELEMS + tile_layout<swizzled_layout>::B_ELEMS;
static const size_t SMEM_BYTES = (size_t)TS_STAGES * STAGE_ELEMS * sizeof(__nv_bfloat16);

__device__ __forceinline__ void cp_async16(__nv_bfloat16 *dst, const __nv_bfloat16 *src, bool inside)
{
    uint32_t d = (uint32_t)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(inside ? 16 : 0)
                 : "memory");
}

template <int ROWS, int COLS>
__device__ __forceinline__ void copy_tile(const __nv_bfloat16 *G, int g_rows, int g_cols, int row0, int col0,
                                          __nv_bfloat16 *S, int tid)
{
#pragma unroll
    for (int i = 0; i < ROWS * COLS / 8 / TS_THREADS; ++i) {
        int r, c;
        bool inside = chunk_of<COLS>(i * TS_THREADS + tid, row0, col0, g_rows, g_cols, r, c);
        cp_async16(&S[swizzled_layout::at<COLS>(r, c)], inside ? &G[(size_t)(row0 + r) * g_cols + col0 + c] : G,
                   inside);
    }
}

/* k-tile t into its slot of the ring (nothing past the last: an empty commit group keeps the count). */
__device__ __forceinline__ void copy_k_tile(const __nv_bfloat16 *M, const __nv_bfloat16 *N, struct matmul_shape s,
                                            int t, int k_tiles, int row0, int col0, __nv_bfloat16 *ring, int tid)
{
    if (t < k_tiles) {
        __nv_bfloat16 *As = ring + (t % TS_STAGES) * STAGE_ELEMS, *Bs = As + tile_layout<swizzled_layout>::A_ELEMS;
        copy_tile<TS_BM, TS_BK>(M, s.rows, s.inner, row0, t * TS_BK, As, tid);
        copy_tile<TS_BK, TS_BN>(N, s.inner, s.cols, t * TS_BK, col0, Bs, tid);
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

__global__ void __launch_bounds__(TS_THREADS, 1)
    cp_async_kernel(const __nv_bfloat16 *__restrict__ M, const __nv_bfloat16 *__restrict__ N,
                    __nv_bfloat16 *__restrict__ P, struct matmul_shape s)
{
    extern __shared__ __align__(128) __nv_bfloat16 ring[];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wm = warp >> 2, wn = warp & 3;
    const int row0 = blockIdx.y * TS_BM, col0 = blockIdx.x * TS_BN, k_tiles = (s.inner + TS_BK - 1) / TS_BK;
    float acc[4][4][4] = {};
    for (int t = 0; t < TS_STAGES - 1; ++t)
        copy_k_tile(M, N, s, t, k_tiles, row0, col0, ring, tid);
    for (int t = 0; t < k_tiles; ++t) {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(TS_STAGES - 2) : "memory");
        __syncthreads();
        copy_k_tile(M, N, s, t + TS_STAGES - 1, k_tiles, row0, col0, ring, tid);
        const __nv_bfloat16 *As = ring + (t % TS_STAGES) * STAGE_ELEMS, *Bs = As + tile_layout<swizzled_layout>::A_ELEMS;
#pragma unroll
        for (int kk = 0; kk < TS_BK; kk += 16)
            warp_tile_mma<swizzled_layout>(As, Bs, kk, wm, wn, lane, acc);
    }
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    store_warp_tile(P, s, row0 + wm * 64, col0 + wn * 32, lane, acc);
}

extern "C" const char *matmul_cp_async(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    if (!tensor_shape_matches(grid, block, o->shape, TS_BM, TS_BN, TS_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    if (!tensor_rows_aligned(o))
        return TENSOR_REFUSED_ALIGNMENT;
    cudaError_t rc = cudaFuncSetAttribute(cp_async_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SMEM_BYTES);
    if (rc != cudaSuccess)
        return cudaGetErrorString(rc);
    cp_async_kernel<<<grid, block, SMEM_BYTES, o->stream>>>((const __nv_bfloat16 *)o->m, (const __nv_bfloat16 *)o->n,
                                                            (__nv_bfloat16 *)o->p, o->shape);
    return launch_status();
}

MATMUL_KERNEL(matmul_cp_async_kernel, cp_async_kernel, SMEM_BYTES)
