/*
 * The warp-specialized wgmma GEMM of the top rungs: warp_specialized, persistent, tma_store and cluster_multicast
 * are this one kernel with one more idea switched on each, in that order (PERSISTENT, then TMA_STORE, then
 * CLUSTER; the rung files say what each should move); even_waves is tma_store launched on another grid
 * (EVEN_WAVES, the launch's alone); overlapped_stores stores each tile while the next tile's first k-tile runs
 * (OVERLAP); fitted_tiles computes its 144 x 128 tiles as tiles of P^T (TRANSPOSED); square_tiles' 192 x 192 tiles are
 * three consumers of 64 x 192 (BN, CONSUMERS).
 *
 * A block is three warpgroups (four in the 192-row tiles of taller_tiles and square_tiles, two in short_tiles' 64-row
 * tiles: CONSUMERS, ws_shape).
 * Warpgroup 0 is the producer: it gives registers back (setmaxnreg.dec to 40) and one of its threads issues the TMA
 * copies of every k-tile into a ring of stages, waiting on each slot's "empty" mbarrier before refilling it.
 * Warpgroups 1 and 2 are consumers (1 to 3, at 152 registers, in a 192-row tile): they take registers
 * (setmaxnreg.inc to 232), wait on each slot's "full" mbarrier, multiply their 64 x 256 half of the 128 x 256 tile
 * with four wgmma.m64n256k16 a k-tile (128 FP32 accumulators a thread; other tiles' wgmma below, ws_shape), keep one
 * k-tile's wgmma in flight and release the slot of the one before, then write their outputs.
 *   PERSISTENT: one block per SM (a cluster of them), each walking the tiles c, c + C, c + 2C, ... in a rasterized
 *     order: bands of RASTER cluster rows, down each column of tiles, so the blocks working at once share the
 *     columns of N and rows of M they read in the L2; the producer runs ahead into the next tile while the
 *     consumers store the last.
 *   CLUSTER: 2-CTA clusters over two vertically adjacent tiles (same 256 columns of N): each CTA loads its own A
 *     tile and half of the B tile, multicast into both CTAs' shared memory (TMA .multicast::cluster); a slot is
 *     free only when the consumers of both CTAs have released it (4 arrivals, two of them remote). Persistent,
 *     the grid is the clusters that can be resident together (cudaOccupancyMaxActiveClusters), not SMs / 2.
 *   TMA_STORE: each consumer writes its bf16 outputs with stmatrix, a 64 x 64 box at a time, into two swizzled
 *     8 KB boxes that one thread stores with TMA (UTMASTG) in turn, the stores overlapping the next box's writes
 *     and the next tile's k-loop; 32 KB of boxes keep the ring at 4 stages.
 *
 * Bounds: inner and cols multiples of 8 (TMA), else refused; TMA zero-fills loads past the edge and clips stores;
 * the direct stores are guarded.
 */
#ifndef MEMSCOPE_TENSOR_WS_CUH
#define MEMSCOPE_TENSOR_WS_CUH

#include "tensor_hopper.cuh"

#ifndef WS_RASTER /* -D: a copy with other bands (its DRAM bytes and time measured) */
#define WS_RASTER 8 /* cluster rows of tiles per band of the persistent order */
#endif

/* BN: the tile's columns, WS_BN (256) but in chosen_tiles and taller_tiles, which take 128 or 64 where the shape
 * asks for it (tensor_tiles.h): a k-tile is then 32 or 24 KB, and the ring takes as many stages as 48 KB k-tiles
 * would fill; in wider_tiles' 128 x 320 tiles, whose k-tiles of 56 KB fill 3 stages, and whose consumers each
 * take their 64 x 320 outputs in two wgmma a k-step (m64n256k16 and m64n64k16: 160 accumulators a thread); and in
 * square_tiles' 192 x 192, one wgmma m64n192k16 a consumer a k-step (96 accumulators a thread).
 * CONSUMERS: the consumer warpgroups, 2 but in short_tiles' 64 x 128 and 64 x 64 tiles, one consumer of 64 rows (8 or
 * 12 stages beside its 16 KB of boxes), and in taller_tiles' 192 x 128 tiles and square_tiles' 192 x 192, whose third
 * consumer takes rows 128 to 191: the ring then takes the stages that fit beside three consumers' boxes (4 of 40 KB;
 * 3 of 48 KB), and the 64K registers of the SM leave each consumer 152 (40 x 128 + 152 x 384), too few for 64 x 256
 * accumulators.
 * TRANSPOSED: a tile of P^T, fitted_tiles' 144 x 128 (FT_ROWS x 128): consumer c takes columns 64 c to 64 c + 63 of
 * all 144 rows, one wgmma m64n144k16 a k-step with a 64-column box of N as A and the tile's rows of M as B
 * (tensor_hopper.cuh), 72 accumulators a thread, each a row of P^T: the k-tile is 18 KB of M (the "A" box of 144
 * rows) and 16 KB of N, 5 stages; the store writes P^T's fragment transposed (ws_store_tma_transposed). */
template <bool CLUSTER, bool TMA_STORE, int BN = WS_BN, int CONSUMERS = 2, bool TRANSPOSED = false> struct ws_shape {
    static const int CM = CLUSTER ? 2 : 1; /* CTAs of a cluster, stacked along m */
    static const int BM = TRANSPOSED ? FT_ROWS : 64 * CONSUMERS, THREADS = 128 * (CONSUMERS + 1);
    static const int FRAGMENT = (TRANSPOSED ? BM : BN) / 2; /* a consumer thread's accumulators */
    static const int A_BYTES = BM * WS_BK * 2, B_BYTES = WS_BK * BN * 2, STAGE_BYTES = A_BYTES + B_BYTES;
    static const int C_BYTES = TMA_STORE ? CONSUMERS * WS_STORE_BOXES * WS_BOX_BYTES : 0; /* the consumers' boxes */
    static const int RING_BYTES = WS_STAGES * (WS_BM * WS_BK * 2 + WS_BK * WS_BN * 2), FIT_BYTES = 225 * 1024 - C_BYTES;
    static const int STAGES = (RING_BYTES < FIT_BYTES ? RING_BYTES : FIT_BYTES) / STAGE_BYTES;
    static const size_t SMEM = (size_t)STAGES * STAGE_BYTES + C_BYTES + 1024; /* + 1024: the ring's alignment */
    static const int CONSUMER_REGS = CONSUMERS == 3 ? 152 : 232;
    static_assert(SMEM + 2 * STAGES * 8 <= 227 * 1024, "an H100 block has 227 KB of shared memory");
    static_assert(BN == 64 || BN == 128 || BN == SQ_SIDE || BN == 256 || BN == 320,
                  "a consumer's wgmma is m64n64k16, m64n128k16, m64n192k16 or m64n256k16, or the last and the first "
                  "for 320 columns");
    static_assert(CONSUMERS == 2 || (CONSUMERS == 3 && (BN == 128 || BN == SQ_SIDE) && !CLUSTER) ||
                      (CONSUMERS == 1 && BN <= 128 && !CLUSTER),
                  "three consumers: 64 x 128 or 64 x 192 accumulators each; one: 64 x 64 or 64 x 128; no clusters");
    static_assert(!TRANSPOSED || (BN == 64 * CONSUMERS && CONSUMERS == 2 && !CLUSTER && TMA_STORE),
                  "a tile of P^T: 64 columns a consumer, two consumers, no clusters, TMA stores");
};

#ifdef MEMSCOPE_SM90A

/* Tile t of the persistent order (cluster rows of CM tiles, banded) as a cluster row and a column of tiles. */
__device__ __forceinline__ void raster_tile(int t, int cluster_rows, int cols, int &cluster_row, int &col)
{
    const int band = t / (WS_RASTER * cols), first = band * WS_RASTER;
    const int height = min(cluster_rows - first, WS_RASTER), r = t % (WS_RASTER * cols);
    cluster_row = first + r % height, col = r / height;
}

/* The producer's copies of k-tile k of the tile at (row0, col0) into its slot, counted on full. */
template <bool CLUSTER, bool TMA_STORE, int BN, int CONSUMERS, bool TRANSPOSED>
__device__ __forceinline__ void ws_issue(uint8_t *slot, uint64_t *full, const CUtensorMap *map_m,
                                         const CUtensorMap *map_n, int k, int row0, int col0, unsigned rank)
{
    typedef ws_shape<CLUSTER, TMA_STORE, BN, CONSUMERS, TRANSPOSED> S;
    mbar_expect_bytes(full, S::STAGE_BYTES);
    tma_load(slot, map_m, full, k * WS_BK, row0);
    for (int j = 0; j < BN / 64; ++j)
        if (!CLUSTER)
            tma_load(slot + S::A_BYTES + j * 8192, map_n, full, col0 + 64 * j, k * WS_BK);
        else if ((unsigned)j % 2 == rank)
            tma_load_multicast(slot + S::A_BYTES + j * 8192, map_n, full, col0 + 64 * j, k * WS_BK, 0x3);
}

/* A consumer releases a slot: in a cluster, to the producers of both CTAs (whose copies fill it). */
template <bool CLUSTER> __device__ __forceinline__ void ws_release(uint64_t *empty, int tid_in_wg)
{
    if (CLUSTER) {
        if (tid_in_wg < 2)
            mbar_arrive_cluster(empty, tid_in_wg);
    } else if (tid_in_wg == 0)
        mbar_arrive(empty);
}

/* A consumer warpgroup's 64 x BN outputs as BN / 64 boxes of 64 x 64 of P, through its WS_STORE_BOXES swizzled 8 KB
 * shared boxes in turn (chunk c of row r at c ^ (r % 8), TMA's 128-byte swizzle). A box is written with
 * stmatrix.x4, which takes the accumulators as they lie (the wgmma fragment of an 8 x 8 block is stmatrix's: a
 * thread's bf16 pair of row lane / 4): a warp writes two 16 x 8 column blocks an instruction, its 8 row addresses
 * per matrix in 8 bank groups. A buffer is written again once the store that read it is done reading: the store
 * WS_STORE_BOXES boxes back, whose buffer it is (wait_group.read leaves the later stores in flight). A tile's first
 * box is buffer 0; where its boxes are not a multiple of the buffers (64 columns: one box; 192: three; 320: five),
 * the last tile's last box was buffer 0 too, the store just before: the first box waits for every store. */
/* Output pair i of a consumer's fragment (columns 2i % 8.. of its 8 x 8 block) as a bf16 pair: from the FP32
 * accumulators, or from pairs rounded before (OVERLAP). */
__device__ __forceinline__ uint32_t fragment_pair(const float *d, int i)
{
    return bf16_pair(d[2 * i], d[2 * i + 1]);
}

__device__ __forceinline__ uint32_t fragment_pair(const uint32_t *pairs, int i)
{
    return pairs[i];
}

template <int BN, typename Fragment>
__device__ __forceinline__ void ws_store_tma(const CUtensorMap *map_p, uint8_t *boxes, int row0, int col0,
                                             const Fragment *d, int tid_in_wg, unsigned barrier)
{
    const int lane = tid_in_wg & 31, matrix = lane >> 3, i = lane & 7;
    const int row = (tid_in_wg >> 5) * 16 + (matrix & 1) * 8 + i; /* the row this lane addresses */
#pragma unroll
    for (int b = 0; b < BN / 64; ++b) {
        uint8_t *box = boxes + (b % WS_STORE_BOXES) * WS_BOX_BYTES;
        if (tid_in_wg == 0) {
            if (b == 0 && BN / 64 % WS_STORE_BOXES != 0)
                tma_store_wait_read<0>();
            else
                tma_store_wait_read<WS_STORE_BOXES - 1>();
        }
        named_barrier(barrier, 128);
#pragma unroll
        for (int j = 0; j < 8; j += 2) {
            const int f = 2 * (8 * b + j); /* columns 64 b + 8 j.. and the 8 after, rows +0 and +8 */
            stmatrix_x4(box + row * 128 + (((j + (matrix >> 1)) ^ i) << 4), fragment_pair(d, f),
                        fragment_pair(d, f + 1), fragment_pair(d, f + 2), fragment_pair(d, f + 3));
        }
        fence_proxy_async();
        named_barrier(barrier, 128);
        if (tid_in_wg == 0) {
            tma_store(map_p, box, col0 + 64 * b, row0);
            tma_store_commit();
        }
    }
}

/* A consumer's 64 columns x ROWS rows of P (a tile of P^T, TRANSPOSED) from its fragment of P^T, whose rows are
 * columns of P: stmatrix.trans writes each 8 x 8 block transposed, so that a box's rows are rows of P, 64 rows a box
 * through the same two swizzled buffers as ws_store_tma; rows past the last whole box go straight to P, a bf16 at a
 * time (a thread's pair lies along P's column). */
template <int ROWS, typename Fragment>
__device__ __forceinline__ void ws_store_tma_transposed(const CUtensorMap *map_p, uint8_t *boxes, __nv_bfloat16 *P,
                                                        struct matmul_shape shape, int row0, int col0,
                                                        const Fragment *d, int tid_in_wg, unsigned barrier)
{
    const int lane = tid_in_wg & 31, warp = tid_in_wg >> 5, matrix = lane >> 3, i = lane & 7;
    const int chunk = 2 * warp + (matrix & 1); /* the 8 columns of P in this lane's matrix: its rows of P^T */
#pragma unroll
    for (int b = 0; b < ROWS / 64; ++b) {
        uint8_t *box = boxes + (b % WS_STORE_BOXES) * WS_BOX_BYTES;
        if (tid_in_wg == 0) {
            if (b == 0 && ROWS / 64 % WS_STORE_BOXES != 0)
                tma_store_wait_read<0>();
            else
                tma_store_wait_read<WS_STORE_BOXES - 1>();
        }
        named_barrier(barrier, 128);
#pragma unroll
        for (int j = 0; j < 8; j += 2) {
            const int f = 2 * (8 * b + j), row = 8 * (j + (matrix >> 1)) + i; /* P^T's columns 64 b + 8 j.. */
            stmatrix_x4_trans(box + row * 128 + ((chunk ^ i) << 4), fragment_pair(d, f), fragment_pair(d, f + 1),
                              fragment_pair(d, f + 2), fragment_pair(d, f + 3));
        }
        fence_proxy_async();
        named_barrier(barrier, 128);
        if (tid_in_wg == 0) {
            tma_store(map_p, box, col0, row0 + 64 * b);
            tma_store_commit();
        }
    }
    const int col = col0 + 16 * warp + (lane >> 2);
#pragma unroll
    for (int g = ROWS / 64 * 8; g < ROWS / 8; ++g)
#pragma unroll
        for (int half = 0; half < 2; ++half) { /* P^T's rows lane / 4 and + 8: columns col and col + 8 of P */
            const uint32_t pair = fragment_pair(d, 2 * g + half);
            const int row = row0 + 8 * g + 2 * (lane & 3), c = col + 8 * half;
            if (c < shape.cols && row < shape.rows)
                P[(size_t)row * shape.cols + c] = __ushort_as_bfloat16((unsigned short)(pair & 0xFFFF));
            if (c < shape.cols && row + 1 < shape.rows)
                P[(size_t)(row + 1) * shape.cols + c] = __ushort_as_bfloat16((unsigned short)(pair >> 16));
        }
}

/* A consumer's outputs from (row0, col0) by TMA boxes: 64 rows of BN columns, or (TRANSPOSED) 64 columns of BM rows. */
template <int BN, int BM, bool TRANSPOSED, typename Fragment>
__device__ __forceinline__ void ws_store(const CUtensorMap *map_p, uint8_t *boxes, __nv_bfloat16 *P,
                                         struct matmul_shape shape, int row0, int col0, const Fragment *d,
                                         int tid_in_wg, unsigned barrier)
{
    if constexpr (TRANSPOSED)
        ws_store_tma_transposed<BM>(map_p, boxes, P, shape, row0, col0, d, tid_in_wg, barrier);
    else
        ws_store_tma<BN>(map_p, boxes, row0, col0, d, tid_in_wg, barrier);
}

/* One k-step of a consumer's half tile: d (64 x BN) += A (64 x 16) x B (16 x BN), descriptors a and b (b_desc's, its
 * first box). 320 columns are 256 and the 64 of the fifth box, whose accumulators follow the first 256 columns' in
 * the fragment layout of one m64n320 (4 a group of 8 columns), so that the store takes them as one. */
template <int BN> __device__ __forceinline__ void wgmma_half_tile(float *d, uint64_t a, uint64_t b, int scale_d)
{
    if constexpr (BN == 320) {
        wgmma_m64n256k16(d, a, b, scale_d);
        wgmma_m64n64k16(d + 128, a, desc_plus(b, 4 * 64 * WS_BK * 2), scale_d);
    } else if constexpr (BN == 256)
        wgmma_m64n256k16(d, a, b, scale_d);
    else if constexpr (BN == SQ_SIDE)
        wgmma_m64n192k16(d, a, b, scale_d);
    else if constexpr (BN == 128)
        wgmma_m64n128k16(d, a, b, scale_d);
    else
        wgmma_m64n64k16(d, a, b, scale_d);
}

/* A k-tile's slot in the ring and the parity of its mbarriers' phase, stepped a k-tile at a time. */
template <int STAGES> struct ring_pos {
    int slot = 0;
    unsigned phase = 0;
    __device__ __forceinline__ void step()
    {
        if (++slot == STAGES)
            slot = 0, phase ^= 1;
    }
};

#endif

/* TICKETED (no rung's; the diagnosis corpus's scheduled_wgmma_gemm, kernels/pathology/): a block of the plain grid
 * takes its tile from a ticket, one atomicAdd on tickets a block, in the order the blocks arrive, as the dynamic tile
 * schedulers of framework GEMMs do; tickets is NULL elsewhere. The ticket is the count modulo the grid's blocks, so
 * each launch deals every tile once while the counter runs on, also past its wrap at 2^32 where the grid is a power
 * of two blocks (the corpus's 512). */
/* OVERLAP (overlapped_stores): a consumer rounds its tile's outputs to bf16 pairs in registers (a quarter of the
 * tile's columns a thread) and stores them after issuing the next tile's first k-tile of wgmma, so that the tensor
 * pipe works through the store; the last tile's are stored after the loop. Persistent, with TMA stores. */
template <bool PERSISTENT, bool CLUSTER, bool TMA_STORE, int BN = WS_BN, int CONSUMERS = 2, bool TICKETED = false,
          bool OVERLAP = false, bool TRANSPOSED = false>
__global__ void __launch_bounds__(128 * (CONSUMERS + 1), 1)
    ws_gemm_kernel(const __grid_constant__ CUtensorMap map_m, const __grid_constant__ CUtensorMap map_n,
                   const __grid_constant__ CUtensorMap map_p, __nv_bfloat16 *__restrict__ P,
                   struct matmul_shape shape, unsigned *tickets)
{
#ifdef MEMSCOPE_SM90A
    static_assert(!TICKETED || (!PERSISTENT && !CLUSTER), "a ticket a block of the plain grid");
    static_assert(!OVERLAP || (PERSISTENT && TMA_STORE && BN <= WS_BN && !(CONSUMERS == 3 && BN == SQ_SIDE)),
                  "overlapped stores: persistent, TMA stores, pairs beside at most 128 accumulators (64 with three "
                  "consumers)");
    typedef ws_shape<CLUSTER, TMA_STORE, BN, CONSUMERS, TRANSPOSED> S;
    extern __shared__ uint8_t raw[];
    __shared__ __align__(8) uint64_t full[S::STAGES], empty[S::STAGES];
    __shared__ unsigned ticket;
    uint8_t *ring = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
    /* wg from lane 0: the compiler then knows it the same across the warp, and keeps what derives from it (a
     * consumer's descriptors) in uniform registers, where wgmma reads them */
    const int tid = threadIdx.x, wg = __shfl_sync(0xFFFFFFFFu, tid / 128, 0), tid_in_wg = tid % 128;
    const unsigned rank = CLUSTER ? cluster_rank() : 0;
    const int k_tiles = (shape.inner + WS_BK - 1) / WS_BK, cols = (shape.cols + BN - 1) / BN;
    const int cluster_rows = ((shape.rows + S::BM - 1) / S::BM + S::CM - 1) / S::CM;
    /* this block's tiles: first, first + step, ... below count (one, at its grid place, unless persistent) */
    const int first = PERSISTENT ? blockIdx.x / S::CM : 0, step = PERSISTENT ? gridDim.x / S::CM : 1;
    const int count = PERSISTENT ? cluster_rows * cols : 1;
    if (tid == 0) {
        if (TICKETED)
            ticket = atomicAdd(tickets, 1u) % (gridDim.x * gridDim.y);
        for (int s = 0; s < S::STAGES; ++s) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], CONSUMERS * S::CM);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    if (CLUSTER)
        cluster_sync();
    else
        __syncthreads();
    auto tile_origin = [&](int t, int &row0, int &col0) {
        int cluster_row = TICKETED ? (int)(ticket / gridDim.x) : (int)blockIdx.y;
        int col = TICKETED ? (int)(ticket % gridDim.x) : (int)blockIdx.x;
        if (PERSISTENT)
            raster_tile(t, cluster_rows, cols, cluster_row, col);
        row0 = (cluster_row * S::CM + (int)rank) * S::BM, col0 = col * BN;
    };
    if (wg == 0) {
        setmaxnreg_dec<40>();
        if (tid == 0) {
            ring_pos<S::STAGES> pos;
            for (int t = first; t < count; t += step) {
                int row0, col0;
                tile_origin(t, row0, col0);
                for (int k = 0; k < k_tiles; ++k, pos.step()) {
                    mbar_wait(&empty[pos.slot], pos.phase ^ 1);
                    ws_issue<CLUSTER, TMA_STORE, BN, CONSUMERS, TRANSPOSED>(
                        ring + pos.slot * S::STAGE_BYTES, &full[pos.slot], &map_m, &map_n, k, row0, col0, rank);
                }
            }
        }
    } else {
        setmaxnreg_inc<S::CONSUMER_REGS>();
        const int c = wg - 1;
        uint8_t *boxes = ring + S::STAGES * S::STAGE_BYTES + c * (S::C_BYTES / CONSUMERS);
        /* slot 0's descriptors of this consumer's operands, k-step 0: A its 64 rows of M (TRANSPOSED: all rows, as
         * wgmma's B), B the tile's columns of N (TRANSPOSED: its 64, as wgmma's A) */
        const __nv_bfloat16 *slot0 = (const __nv_bfloat16 *)ring;
        const uint64_t a0 = a_desc(slot0 + (TRANSPOSED ? 0 : c * 64 * WS_BK), 0);
        const uint64_t b0 = b_desc(slot0 + S::A_BYTES / 2 + (TRANSPOSED ? c * 64 * WS_BK : 0), 0);
        ring_pos<S::STAGES> pos;
        uint32_t pairs[OVERLAP ? S::FRAGMENT / 2 : 1]; /* OVERLAP: the last tile's outputs, not stored yet */
        int pending_row0 = -1, pending_col0 = 0;
        (void)pairs, (void)pending_col0;
        for (int t = first; t < count; t += step) {
            int row0, col0;
            tile_origin(t, row0, col0);
            if (TRANSPOSED) /* this consumer's outputs: its 64 columns of all rows, else its 64 rows */
                col0 += 64 * c;
            else
                row0 += 64 * c;
            float d[S::FRAGMENT];
            int last = 0;
            for (int k = 0; k < k_tiles; ++k, pos.step()) {
                mbar_wait(&full[pos.slot], pos.phase);
                const uint64_t a_slot = desc_plus(a0, pos.slot * S::STAGE_BYTES);
                const uint64_t b_slot = desc_plus(b0, pos.slot * S::STAGE_BYTES);
                wgmma_fence();
#pragma unroll
                for (int ks = 0; ks < WS_BK / 16; ++ks) { /* a k-step: 16 columns of A's rows, 16 rows of B's boxes */
                    const uint64_t a = desc_plus(a_slot, ks * TL_A_KSTEP_BYTES);
                    const uint64_t b = desc_plus(b_slot, ks * TL_B_KSTEP_BYTES);
                    if constexpr (TRANSPOSED) /* N's box c as A, all of the tile's rows of M as B */
                        wgmma_m64n144k16_transposed_a(d, b, a, k > 0 || ks > 0);
                    else
                        wgmma_half_tile<BN>(d, a, b, k > 0 || ks > 0);
                }
                wgmma_commit();
                if constexpr (OVERLAP)
                    if (k == 0 && pending_row0 >= 0) { /* while this k-tile's wgmma run */
                        ws_store<BN, S::BM, TRANSPOSED>(&map_p, boxes, P, shape, pending_row0, pending_col0, pairs,
                                                        tid_in_wg, 1 + c);
                        pending_row0 = -1;
                    }
                wgmma_wait<1>(); /* k-tile k-1's wgmma are done: its slot may go */
                if (k > 0)
                    ws_release<CLUSTER>(&empty[last], tid_in_wg);
                last = pos.slot;
            }
            wgmma_wait<0>();
            ws_release<CLUSTER>(&empty[last], tid_in_wg);
            if constexpr (OVERLAP) {
#pragma unroll
                for (int i = 0; i < S::FRAGMENT / 2; ++i)
                    pairs[i] = fragment_pair(d, i);
                pending_row0 = row0, pending_col0 = col0;
            } else if (TMA_STORE)
                ws_store<BN, S::BM, TRANSPOSED>(&map_p, boxes, P, shape, row0, col0, d, tid_in_wg, 1 + c);
            else
                store_wgmma_tile<BN>(P, shape, row0, col0, d);
        }
        if constexpr (OVERLAP)
            if (pending_row0 >= 0)
                ws_store<BN, S::BM, TRANSPOSED>(&map_p, boxes, P, shape, pending_row0, pending_col0, pairs, tid_in_wg,
                                                1 + c);
        if (TMA_STORE && tid_in_wg == 0)
            asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
    }
    if (CLUSTER)
        cluster_sync(); /* no CTA leaves while its partner may still write into it or arrive on its barriers */
#else
    (void)map_m, (void)map_n, (void)map_p, (void)P, (void)shape, (void)tickets;
#endif
}

/* How many clusters of this kernel can be resident at once on the current device (a cluster must fit in one GPC,
 * so this can be fewer than SMs / CM), asked once per device: 0 and why, if the query fails. */
template <bool PERSISTENT, bool CLUSTER, bool TMA_STORE>
static const char *ws_resident_clusters(cudaLaunchConfig_t *config, int *clusters)
{
    static int device = -1, resident;
    int now;
    cudaError_t rc = cudaGetDevice(&now);
    if (rc == cudaSuccess && now != device) {
        rc = cudaOccupancyMaxActiveClusters(&resident, ws_gemm_kernel<PERSISTENT, CLUSTER, TMA_STORE>, config);
        device = rc == cudaSuccess ? now : -1;
    }
    *clusters = rc == cudaSuccess ? resident : 0;
    return rc == cudaSuccess ? NULL : cudaGetErrorString(rc);
}

/* The current device's SMs, or why not. */
static inline const char *ws_device_sms(int *sms)
{
    int device;
    cudaError_t rc = cudaGetDevice(&device);
    if (rc == cudaSuccess)
        rc = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device);
    return rc == cudaSuccess ? NULL : cudaGetErrorString(rc);
}

/* The tile a rule of tensor_tiles.h takes for a product of this shape on the current device (its P's rows and
 * columns); 0 x 0 and why where the device says nothing. */
static inline const char *ws_tile_on_device(struct matmul_shape shape, struct ws_tile (*rule)(int m, int n, int sms),
                                            struct ws_tile *tile)
{
    int sms;
    const char *why = ws_device_sms(&sms);
    *tile = why ? ws_tile{0, 0} : rule(shape.rows, shape.cols, sms);
    return why;
}

/* The launch: a grid of tiles, or (persistent) one block per SM; with EVEN_WAVES the fewest blocks that take as
 * few rounds of tiles (tensor_tiles.h); with clusters, as many as can be resident at once: the tiles are dealt to
 * the blocks in advance, so a cluster that had to wait for a free GPC would run its whole share after the others,
 * doubling the time. The registry's grid is of WS_BM x WS_BN tiles whatever tile the kernel takes; the block is
 * the kernel's (taller_tiles gives the one its tile needs, checked against its row's). */
template <bool PERSISTENT, bool CLUSTER, bool TMA_STORE, bool EVEN_WAVES, int BN = WS_BN, int CONSUMERS = 2,
          bool TICKETED = false, bool OVERLAP = false, bool TRANSPOSED = false>
static const char *launch_ws_gemm(const struct matmul_operands *o, dim3 grid, dim3 block, unsigned *tickets = nullptr)
{
    static_assert(!EVEN_WAVES || (PERSISTENT && !CLUSTER), "even waves: a persistent grid of single blocks");
    static_assert(!CLUSTER || BN == WS_BN, "clusters: ws_resident_clusters asks about the 256-column kernel");
#ifndef MEMSCOPE_SM90A
    (void)o, (void)grid, (void)block, (void)tickets;
    return MATMUL_REFUSED TENSOR_NOT_SM90A;
#else
    typedef ws_shape<CLUSTER, TMA_STORE, BN, CONSUMERS, TRANSPOSED> S;
    if (!tensor_shape_matches(grid, block, o->shape, WS_BM, WS_BN, S::THREADS))
        return TENSOR_SHAPE_MISMATCH;
    if (!tensor_rows_aligned(o))
        return TENSOR_REFUSED_ALIGNMENT;
    struct tensor_maps *maps;
    const char *why = tensor_maps_for(o, S::BM, &maps);
    if (why)
        return why;
    auto kernel = ws_gemm_kernel<PERSISTENT, CLUSTER, TMA_STORE, BN, CONSUMERS, TICKETED, OVERLAP, TRANSPOSED>;
    cudaError_t rc = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)S::SMEM);
    if (rc != cudaSuccess)
        return cudaGetErrorString(rc);
    if (PERSISTENT) {
        int sms;
        if ((why = ws_device_sms(&sms)))
            return why;
        const int tiles = ((o->shape.rows + S::BM - 1) / S::BM) * ((o->shape.cols + BN - 1) / BN);
        grid = dim3(EVEN_WAVES ? even_waves_grid(tiles, sms) : sms / S::CM * S::CM, 1, 1);
    }
    if (CLUSTER) {
        cudaLaunchConfig_t config = {grid, block, S::SMEM, o->stream, NULL, 0};
        cudaLaunchAttribute cluster;
        cluster.id = cudaLaunchAttributeClusterDimension;
        cluster.val.clusterDim.x = S::CM, cluster.val.clusterDim.y = 1, cluster.val.clusterDim.z = 1;
        config.attrs = &cluster, config.numAttrs = 1;
        if (PERSISTENT) {
            int clusters;
            if ((why = ws_resident_clusters<PERSISTENT, CLUSTER, TMA_STORE>(&config, &clusters)))
                return why;
            if (clusters < 1)
                return MATMUL_REFUSED "no 2-CTA cluster of this kernel fits on the device";
            if ((unsigned)(clusters * S::CM) < config.gridDim.x)
                config.gridDim.x = clusters * S::CM;
        }
        rc = cudaLaunchKernelEx(&config, kernel, maps->m, maps->n, maps->p, (__nv_bfloat16 *)o->p, o->shape,
                                tickets);
        return rc == cudaSuccess ? launch_status() : cudaGetErrorString(rc);
    }
    kernel<<<grid, block, S::SMEM, o->stream>>>(maps->m, maps->n, maps->p, (__nv_bfloat16 *)o->p, o->shape, tickets);
    return launch_status();
#endif
}

/* A rung of the five: its launcher and kernel accessor. */
#define TENSOR_WS_GEMM(name, PERSISTENT, CLUSTER, TMA_STORE, EVEN_WAVES)                                         \
    extern "C" const char *name(const struct matmul_operands *o, dim3 grid, dim3 block)                          \
    {                                                                                                            \
        return launch_ws_gemm<PERSISTENT, CLUSTER, TMA_STORE, EVEN_WAVES>(o, grid, block);                       \
    }                                                                                                            \
    MATMUL_KERNEL(name##_kernel, (ws_gemm_kernel<PERSISTENT, CLUSTER, TMA_STORE>),                               \
                  (ws_shape<CLUSTER, TMA_STORE>::SMEM))

#endif
