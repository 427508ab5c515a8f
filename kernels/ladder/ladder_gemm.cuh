/*
 * The two kernel templates the upper rungs of the FP32 ladder instantiate, with their launchers.
 * Each variant's own file (matmul_vectorized.cu ... matmul_small_tiles.cu) explains the one idea
 * its template arguments switch on and records the chosen tiles.
 *
 * staged_gemm_kernel: vectorized, vectorized_padded, warptiled. Each k-tile is read from global
 *   memory into registers with 16-byte loads, stored to shared memory (A transposed, its rows
 *   padded by A_PAD floats), then consumed from shared memory with 16-byte loads; two barriers
 *   per k-tile, nothing overlapped but what other resident blocks provide.
 *
 * pipelined_gemm_kernel: pipelined, rasterized, large_tiles, halfwarp_lanes, icache_fit,
 *   small_tiles, split_k, spread_copies. STAGES shared-memory buffers filled by cp.async, always
 *   STAGES - 1 tiles in flight while the FFMAs consume the oldest; one barrier per k-tile;
 *   warp-tiled register tiles; GROUP > 0 rasterizes the block order; K_UNROLL < BK keeps the k
 *   loop inside a tile rolled (0: unrolled whole); SPLIT_K lets gridDim.z blocks share one tile
 *   of P, each summing its own stretch of k and adding it to P atomically (split_k); COPIES_AT >= 0
 *   issues the next k-tile's copies a share at a time among the FFMAs, before that step of each
 *   unrolled run (spread_copies).
 */
#ifndef MEMSCOPE_LADDER_GEMM_CUH
#define MEMSCOPE_LADDER_GEMM_CUH

#include "ladder_common.cuh"
#include "../launch_status.cuh"

template <int BM, int BN, int WM, int WN, int TM, int TN, bool WARP_TILED>
struct gemm_threads {
    static const int value = WARP_TILED ? (BM / WM) * (BN / WN) * 32 : (BM / TM) * (BN / TN);
};

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int A_PAD, bool WARP_TILED, bool VEC>
__global__ void __launch_bounds__(gemm_threads<BM, BN, WM, WN, TM, TN, WARP_TILED>::value)
    staged_gemm_kernel(const float *__restrict__ M, const float *__restrict__ N, float *__restrict__ P, int width)
{
    const int THREADS = gemm_threads<BM, BN, WM, WN, TM, TN, WARP_TILED>::value;
    const int LDA = BM + A_PAD;
    const int A_STEP = thread_tile_steps<WM, WN, TM, TN, WARP_TILED>::a;
    const int B_STEP = thread_tile_steps<WM, WN, TM, TN, WARP_TILED>::b;
    __shared__ __align__(16) float As[BK * LDA]; /* As[k][m]: the A tile transposed */
    __shared__ __align__(16) float Bs[BK * BN];  /* Bs[k][n] */
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int r0, c0;
    thread_tile_origin<BN, WM, WN, TM, TN, WARP_TILED>(tid, r0, c0);
    float acc[TM][TN] = {};

    for (int k0 = 0; k0 < width; k0 += BK) {
        load_tile_vec4<BM, BK, THREADS, true, VEC>(M, width, row0, k0, As, LDA, tid);
        load_tile_vec4<BK, BN, THREADS, false, VEC>(N, width, k0, col0, Bs, BN, tid);
        __syncthreads();
        mma_tile<BK, LDA, BN, TM, TN, A_STEP, B_STEP>(&As[r0], &Bs[c0], acc);
        __syncthreads();
    }
    store_tile<TM, TN, A_STEP, B_STEP, VEC>(P, width, row0 + r0, col0 + c0, acc);
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int A_PAD, bool WARP_TILED>
static const char *launch_staged_gemm(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    const int THREADS = gemm_threads<BM, BN, WM, WN, TM, TN, WARP_TILED>::value;
    if (const char *why = ladder_refusal(o, grid, block, BM, BN, THREADS))
        return why;
    const float *m = (const float *)o->m, *n = (const float *)o->n;
    float *p = (float *)o->p;
    if (rows_are_16b_aligned(o))
        staged_gemm_kernel<BM, BN, BK, WM, WN, TM, TN, A_PAD, WARP_TILED, true>
            <<<grid, block, 0, o->stream>>>(m, n, p, o->shape.rows);
    else
        staged_gemm_kernel<BM, BN, BK, WM, WN, TM, TN, A_PAD, WARP_TILED, false>
            <<<grid, block, 0, o->stream>>>(m, n, p, o->shape.rows);
    return launch_status();
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int A_PAD, bool WARP_TILED>
static const void *staged_gemm_kernel_of(size_t *dynamic_smem_bytes)
{
    *dynamic_smem_bytes = 0;
    return (const void *)staged_gemm_kernel<BM, BN, BK, WM, WN, TM, TN, A_PAD, WARP_TILED, true>;
}

/* The A tile's rows in shared memory are padded by 4 floats: 16-byte aligned, and the transposed
 * 4-byte copies of a warp land in 32 different banks (see vectorized_padded). */
#define PIPE_A_PAD 4

template <int BM, int BN, int BK, int STAGES>
struct pipe_smem {
    static const int a_stage = BK * (BM + PIPE_A_PAD), b_stage = BK * BN;
    static const size_t bytes = (size_t)STAGES * (a_stage + b_stage) * sizeof(float);
};

/* Issue the copies of k-tile k0 into one stage: A transposed (4-byte copies), B as it lies. */
template <int BM, int BN, int BK, int THREADS, bool VEC, bool CHECK_K>
__device__ __forceinline__ void pipe_load_stage(const float *M, const float *N, int width, int row0, int col0, int k0,
                                                float *As, float *Bs, int tid)
{
    cp_async_tile<BM, BK, THREADS, true, false, true, CHECK_K>(M, width, row0, k0, As, BM + PIPE_A_PAD, tid);
    cp_async_tile<BK, BN, THREADS, false, VEC, false, CHECK_K>(N, width, k0, col0, Bs, BN, tid);
}

/*
 * The fast path, taken for every k-tile of a block that lies wholly inside the matrix when rows are
 * 16-byte aligned (all of them at W = 2048 or 4096), set up once per block in pipe_bases: no clamp,
 * no predicate, each copy one 64-bit add away from the previous one.
 *  A: a warp copies 4 rows x 8 consecutive k of the tile (row lane / 8, k lane % 8) with 4-byte
 *     copies, then the next 4 rows: each request touches 4 cache lines (16 with the 16-row mapping
 *     of quad_coords, which, with the address changes made with it, had cost large_tiles time:
 *     docs/ladder.md), and the stores fall in bank 4k + r + const: conflict-free into the padded
 *     rows.
 *  B: 16-byte copies, consecutive threads along a row of the tile (512 contiguous bytes a warp).
 */
struct pipe_bases {
    const float *a, *b;        /* the thread's first source in k-tile 0, for A and for B */
    size_t a_stride, b_stride; /* floats between its successive sources */
    int a_dst, b_dst;          /* its first destination within a stage */
};

template <int BM, int BN, int BK, int THREADS>
struct pipe_fast {
    static const int a_rows = 4 * (THREADS / 32) / (BK / 8); /* rows between a thread's A copies */
    static const int a_copies = BM * BK / THREADS;
    static const int b_rows = THREADS / (BN / 4); /* rows between a thread's B copies */
    static const int b_copies = BK / b_rows;
    static_assert(BK % 8 == 0 && (THREADS / 32) % (BK / 8) == 0 && a_rows * a_copies == BM,
                  "the fast A path needs BK % 8 == 0 and whole 4 x 8 chunks per warp");
    static_assert(THREADS % (BN / 4) == 0 && b_rows * b_copies == BK, "the fast B path needs whole tile rows");
};

template <int BM, int BN, int BK, int THREADS>
__device__ __forceinline__ pipe_bases pipe_setup(const float *M, const float *N, int width, int row0, int col0,
                                                 int tid)
{
    typedef pipe_fast<BM, BN, BK, THREADS> F;
    const int lane = tid % 32, chunk = tid / 32;
    const int a_r = chunk / (BK / 8) * 4 + lane / 8, a_k = chunk % (BK / 8) * 8 + lane % 8;
    const int b_r = tid / (BN / 4), b_c = tid % (BN / 4) * 4;
    pipe_bases pb;
    /* Only dereferenced for blocks wholly inside the matrix; clamped so that the pointers stay inside anyway. */
    pb.a = M + (size_t)min(row0 + a_r, width - 1) * width + a_k;
    pb.b = N + (size_t)b_r * width + min(col0 + b_c, width - 1);
    pb.a_stride = (size_t)F::a_rows * width;
    pb.b_stride = (size_t)F::b_rows * width;
    pb.a_dst = a_k * (BM + PIPE_A_PAD) + a_r;
    pb.b_dst = b_r * BN + b_c;
    return pb;
}

/* The fast path's copies of k-tile k0, or share `part` of PARTS of them: a run of the A copies and one of the B. */
template <int BM, int BN, int BK, int THREADS, int PARTS = 1>
__device__ __forceinline__ void pipe_load_fast(const pipe_bases &pb, int width, int k0, float *As, float *Bs,
                                               int part = 0)
{
    typedef pipe_fast<BM, BN, BK, THREADS> F;
    static_assert(F::a_copies % PARTS == 0 && F::b_copies % PARTS == 0, "the copies split into equal shares");
    const int A_SHARE = F::a_copies / PARTS, B_SHARE = F::b_copies / PARTS;
    const float *pa = pb.a + k0 + (size_t)part * A_SHARE * pb.a_stride;
#pragma unroll
    for (int j = part * A_SHARE; j < (part + 1) * A_SHARE; ++j, pa += pb.a_stride)
        cp_async4(&As[pb.a_dst + j * F::a_rows], pa, 4);
    const float *pn = pb.b + (size_t)k0 * width + (size_t)part * B_SHARE * pb.b_stride;
#pragma unroll
    for (int j = part * B_SHARE; j < (part + 1) * B_SHARE; ++j, pn += pb.b_stride)
        cp_async16(&Bs[pb.b_dst + j * F::b_rows * BN], pn, 16);
}

template <int BM, int BN, int BK, int THREADS, bool VEC>
__device__ __forceinline__ void pipe_issue(const float *M, const float *N, int width, int row0, int col0, int tile,
                                           float *As, float *Bs, int tid, const pipe_bases &pb, bool interior)
{
    int k0 = tile * BK;
    if (VEC && interior && k0 + BK <= width)
        pipe_load_fast<BM, BN, BK, THREADS>(pb, width, k0, As, Bs);
    else if (k0 + BK <= width)
        pipe_load_stage<BM, BN, BK, THREADS, VEC, false>(M, N, width, row0, col0, k0, As, Bs, tid);
    else
        pipe_load_stage<BM, BN, BK, THREADS, VEC, true>(M, N, width, row0, col0, k0, As, Bs, tid);
}

/* Register tiles of up to 8x8 leave room for two blocks of 256 threads per SM (at most 128
 * registers a thread); asking for it keeps the pipeline's extra address registers from halving
 * the occupancy. Larger tiles run one block per SM. */
template <int TM, int TN>
struct pipe_min_blocks {
    static const int value = TM * TN <= 64 ? 2 : 1;
};

/* The steps of k a k-tile's inner loop unrolls: K_UNROLL, 0 meaning all of them, never more than BK. */
template <int BK, int K_UNROLL>
struct k_unroll {
    static const int value = K_UNROLL > 0 && K_UNROLL < BK ? K_UNROLL : BK;
};

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, int GROUP, bool COL_LANES, int K_UNROLL,
          bool VEC, bool SPLIT_K, int COPIES_AT>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, pipe_min_blocks<TM, TN>::value)
    pipelined_gemm_kernel(const float *__restrict__ M, const float *__restrict__ N, float *__restrict__ P, int width)
{
    static_assert(STAGES >= 2, "a pipeline needs at least two stages");
    const int THREADS = (BM / WM) * (BN / WN) * 32;
    const int LDA = BM + PIPE_A_PAD;
    const int A_STAGE = pipe_smem<BM, BN, BK, STAGES>::a_stage, B_STAGE = pipe_smem<BM, BN, BK, STAGES>::b_stage;
    const int A_STEP = thread_tile_steps<WM, WN, TM, TN, true>::a;
    const int B_STEP = thread_tile_steps<WM, WN, TM, TN, true>::b;
    extern __shared__ __align__(16) float smem[];
    float *As = smem;                   /* STAGES x [BK][BM + pad], A transposed */
    float *Bs = smem + STAGES * A_STAGE; /* STAGES x [BK][BN] */
    const int tid = threadIdx.x;
    int bm, bn;
    block_tile_coords<GROUP>(bm, bn);
    const int row0 = bm * BM, col0 = bn * BN;
    int r0, c0;
    thread_tile_origin<BN, WM, WN, TM, TN, true, COL_LANES>(tid, r0, c0);
    float acc[TM][TN] = {};
    /* The k-tiles this block sums, [first, last): all of them, or blockIdx.z's share of gridDim.z. */
    const int all_tiles = (width + BK - 1) / BK;
    const int share = SPLIT_K ? (all_tiles + gridDim.z - 1) / gridDim.z : all_tiles;
    const int first = SPLIT_K ? blockIdx.z * share : 0;
    const int last = SPLIT_K ? min(all_tiles, first + share) : all_tiles;
    const bool interior = row0 + BM <= width && col0 + BN <= width; /* takes the fast copy path */
    const pipe_bases pb = pipe_setup<BM, BN, BK, THREADS>(M, N, width, row0, col0, tid);

    /* Prologue: STAGES - 1 tiles in flight. Every stage commits a group, empty or not, so that
     * "tile t has landed" is always "at most STAGES - 2 groups pending" at iteration t. */
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (first + s < last)
            pipe_issue<BM, BN, BK, THREADS, VEC>(M, N, width, row0, col0, first + s, As + s * A_STAGE,
                                                 Bs + s * B_STAGE, tid, pb, interior);
        cp_async_commit();
    }
    const int KU = k_unroll<BK, K_UNROLL>::value;
    int read = 0, write = STAGES - 1; /* stage consumed now, stage refilled now */
    for (int t = first; t < last; ++t) {
        cp_async_wait<STAGES - 2>(); /* this thread's copies of tile t have landed ... */
        __syncthreads();             /* ... everyone's too, and everyone is done with tile t - 1 */
        const int next = t + STAGES - 1;
        float *An = As + write * A_STAGE, *Bn = Bs + write * B_STAGE;
        const float *Ar = As + read * A_STAGE + r0, *Br = Bs + read * B_STAGE + c0;
        if (COPIES_AT >= 0 && VEC && interior && next < last && (next + 1) * BK <= width) {
            /* spread_copies: a share of the next tile's copies before step COPIES_AT of each run of KU steps */
            mma_tile_between<BK, LDA, BN, TM, TN, A_STEP, B_STEP, KU, COPIES_AT>(Ar, Br, acc, [&](int part) {
                pipe_load_fast<BM, BN, BK, THREADS, BK / KU>(pb, width, next * BK, An, Bn, part);
            });
            cp_async_commit();
        } else {
            if (next < last)
                pipe_issue<BM, BN, BK, THREADS, VEC>(M, N, width, row0, col0, next, An, Bn, tid, pb, interior);
            cp_async_commit();
            mma_tile<BK, LDA, BN, TM, TN, A_STEP, B_STEP, KU>(Ar, Br, acc);
        }
        read = read == STAGES - 1 ? 0 : read + 1;
        write = write == STAGES - 1 ? 0 : write + 1;
    }
    cp_async_wait<0>(); /* only empty groups can remain; leave none behind */
    if (SPLIT_K && gridDim.z > 1)
        store_tile<TM, TN, A_STEP, B_STEP, VEC, true>(P, width, row0 + r0, col0 + c0, acc);
    else
        store_tile<TM, TN, A_STEP, B_STEP, VEC>(P, width, row0 + r0, col0 + c0, acc);
}

/* Raises the kernel's dynamic shared-memory limit once, when it needs more than the default 48 KB. */
template <typename Kernel>
static const char *allow_shared_bytes(Kernel kernel, size_t bytes, bool *done)
{
    if (bytes <= 48 * 1024 || *done)
        return NULL;
    cudaError_t rc = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
    if (rc != cudaSuccess)
        return cudaGetErrorString(rc);
    *done = true;
    return NULL;
}

/*
 * split_k's share of k: as many blocks per tile of P as the tiles leave SMs idle (W = 1024 with
 * 128x256 tiles: 32 tiles for 132 SMs, so 4), never more k-tiles than there are; 1 from the
 * width where the tiles alone fill the SMs on. P is zeroed first, for the blocks to add into.
 */
static const char *split_k_ways(const struct matmul_operands *o, int tiles_of_p, int k_tiles, unsigned *ways)
{
    static int sms;
    int device;
    cudaError_t rc = sms ? cudaSuccess : cudaGetDevice(&device);
    if (rc == cudaSuccess && !sms)
        rc = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (rc != cudaSuccess)
        return cudaGetErrorString(rc);
    *ways = (unsigned)max(1, min(sms / tiles_of_p, k_tiles));
    if (*ways == 1)
        return NULL;
    rc = cudaMemsetAsync(o->p, 0, (size_t)o->shape.rows * o->shape.cols * sizeof(float), o->stream);
    return rc == cudaSuccess ? NULL : cudaGetErrorString(rc);
}

/*
 * The scalar edge path (width % 4 != 0) runs with k-tiles of at most 16: its clamped 4-byte
 * copies of B need more address registers, and at BK = 32 the 16x8 kernel spilled. BK only
 * changes the loop inside a block, so the grid is the same.
 */
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, int GROUP, bool COL_LANES = false,
          int K_UNROLL = 0, bool SPLIT_K = false, int COPIES_AT = -1>
static const char *launch_pipelined_gemm(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    static bool raised[2];
    const int THREADS = (BM / WM) * (BN / WN) * 32;
    const int BK_EDGE = BK > 16 ? 16 : BK;
    if (const char *why = ladder_refusal(o, grid, block, BM, BN, THREADS))
        return why;
    const float *m = (const float *)o->m, *n = (const float *)o->n;
    float *p = (float *)o->p;
    const bool vec = rows_are_16b_aligned(o);
    void (*kernel)(const float *, const float *, float *, int) =
        vec ? pipelined_gemm_kernel<BM, BN, BK, WM, WN, TM, TN, STAGES, GROUP, COL_LANES, K_UNROLL, true, SPLIT_K,
                                    COPIES_AT>
            : pipelined_gemm_kernel<BM, BN, BK_EDGE, WM, WN, TM, TN, STAGES, GROUP, COL_LANES, K_UNROLL, false, SPLIT_K,
                                    COPIES_AT>;
    const size_t smem = vec ? pipe_smem<BM, BN, BK, STAGES>::bytes : pipe_smem<BM, BN, BK_EDGE, STAGES>::bytes;
    const char *why = allow_shared_bytes(kernel, smem, &raised[vec]);
    if (!why && SPLIT_K)
        why = split_k_ways(o, (int)(grid.x * grid.y),
                           (o->shape.inner + (vec ? BK : BK_EDGE) - 1) / (vec ? BK : BK_EDGE), &grid.z);
    if (why)
        return why;
    kernel<<<grid, block, smem, o->stream>>>(m, n, p, o->shape.rows);
    return launch_status();
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, int GROUP, bool COL_LANES = false,
          int K_UNROLL = 0, bool SPLIT_K = false, int COPIES_AT = -1>
static const void *pipelined_gemm_kernel_of(size_t *dynamic_smem_bytes)
{
    *dynamic_smem_bytes = pipe_smem<BM, BN, BK, STAGES>::bytes;
    return (const void *)pipelined_gemm_kernel<BM, BN, BK, WM, WN, TM, TN, STAGES, GROUP, COL_LANES, K_UNROLL, true,
                                               SPLIT_K, COPIES_AT>;
}

/*
 * A rung's launcher and its kernel accessor (launch_status.cuh's MATMUL_KERNEL) from one list of template
 * arguments, so that the kernel the harness asks the device about is the one the launcher starts: the 16-byte
 * path's, which every width that is a multiple of 4 takes.
 */
#define LADDER_STAGED_GEMM(name, ...)                                                                            \
    extern "C" const char *name(const struct matmul_operands *o, dim3 grid, dim3 block)                        \
    {                                                                                                          \
        return launch_staged_gemm<__VA_ARGS__>(o, grid, block);                                                \
    }                                                                                                          \
    extern "C" const void *name##_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,              \
                                         unsigned *threads)                                                    \
    {                                                                                                          \
        (void)shape, (void)threads;                                                                            \
        return staged_gemm_kernel_of<__VA_ARGS__>(dynamic_smem_bytes);                                         \
    }

#define LADDER_PIPELINED_GEMM(name, ...)                                                                         \
    extern "C" const char *name(const struct matmul_operands *o, dim3 grid, dim3 block)                        \
    {                                                                                                          \
        return launch_pipelined_gemm<__VA_ARGS__>(o, grid, block);                                             \
    }                                                                                                          \
    extern "C" const void *name##_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,              \
                                         unsigned *threads)                                                    \
    {                                                                                                          \
        (void)shape, (void)threads;                                                                            \
        return pipelined_gemm_kernel_of<__VA_ARGS__>(dynamic_smem_bytes);                                      \
    }

#endif
