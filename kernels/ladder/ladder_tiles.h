/*
 * Tile parameters of the FP32 ladder (blocktiled_1d ... spread_copies), in one place because two
 * languages read them: the registry (C) takes its launch shape from here and the kernels (CUDA)
 * their loops, so the grid the harness launches always covers the tiles the kernel computes.
 *
 * Every value can be overridden at build time, e.g.
 *   make BUILD=build-x KERNEL_DEFS='-DLT_BM=128 -DLT_BN=128 -DLT_TM=8'
 * which is what scripts/tune-ladder does; the launchers refuse a grid or block that does not match.
 * The defaults are the values chosen on an H100 (reports/tuning-h100.csv); each kernel file says why,
 * docs/ladder.md gives the sweep's figures.
 *
 * Names: BM x BN is the block tile of P (rows x columns), BK the depth of one shared-memory tile
 * along k, WM x WN the warp tile, TM x TN the outputs one thread keeps in registers.
 */
#ifndef MEMSCOPE_LADDER_TILES_H
#define MEMSCOPE_LADDER_TILES_H

/* blocktiled_1d: each thread a column of BT1_TM outputs. */
#ifndef BT1_BM
#define BT1_BM 64
#endif
#ifndef BT1_BN
#define BT1_BN 64
#endif
#ifndef BT1_BK
#define BT1_BK 8
#endif
#ifndef BT1_TM
#define BT1_TM 8
#endif
#define BT1_THREADS (BT1_BM / BT1_TM * BT1_BN)

/* blocktiled_2d, and vectorized / vectorized_padded, which keep its tiles so that one idea moves at a time. */
#ifndef BT2_BM
#define BT2_BM 128
#endif
#ifndef BT2_BN
#define BT2_BN 128
#endif
#ifndef BT2_BK
#define BT2_BK 16
#endif
#ifndef BT2_TM
#define BT2_TM 8
#endif
#ifndef BT2_TN
#define BT2_TN 8
#endif
#define BT2_THREADS ((BT2_BM / BT2_TM) * (BT2_BN / BT2_TN))

/* warptiled, and pipelined / rasterized, which keep its tiles. */
#ifndef WT_BM
#define WT_BM 128
#endif
#ifndef WT_BN
#define WT_BN 128
#endif
#ifndef WT_BK
#define WT_BK 16
#endif
#ifndef WT_WM
#define WT_WM 32
#endif
#ifndef WT_WN
#define WT_WN 64
#endif
#ifndef WT_TM
#define WT_TM 8
#endif
#ifndef WT_TN
#define WT_TN 8
#endif
#define WT_THREADS ((WT_BM / WT_WM) * (WT_BN / WT_WN) * 32)

/* pipelined: shared-memory stages in flight. */
#ifndef PL_STAGES
#define PL_STAGES 3
#endif

/* rasterized: block rows walked together (0 turns the remapping off). */
#ifndef RS_GROUP
#define RS_GROUP 16
#endif

/* large_tiles and halfwarp_lanes: the best point of the sweep. */
#ifndef LT_BM
#define LT_BM 128
#endif
#ifndef LT_BN
#define LT_BN 256
#endif
#ifndef LT_BK
#define LT_BK 32
#endif
#ifndef LT_WM
#define LT_WM 64
#endif
#ifndef LT_WN
#define LT_WN 64
#endif
#ifndef LT_TM
#define LT_TM 16
#endif
#ifndef LT_TN
#define LT_TN 8
#endif
#ifndef LT_STAGES
#define LT_STAGES 4
#endif
#ifndef LT_GROUP
#define LT_GROUP 16
#endif
#define LT_THREADS ((LT_BM / LT_WM) * (LT_BN / LT_WN) * 32)

/* icache_fit: halfwarp_lanes' tiles, with this many steps of k unrolled in the k-tile's inner loop. */
#ifndef IF_K_UNROLL
#define IF_K_UNROLL 8
#endif

/* small_tiles: a block tile small enough that W = 1024 fills the SMs; icache_fit's pipeline and unrolled steps. */
#ifndef ST_BM
#define ST_BM 64
#endif
#ifndef ST_BN
#define ST_BN 128
#endif
#ifndef ST_BK
#define ST_BK 32
#endif
#ifndef ST_WM
#define ST_WM 32
#endif
#ifndef ST_WN
#define ST_WN 64
#endif
#ifndef ST_TM
#define ST_TM 8
#endif
#ifndef ST_TN
#define ST_TN 8
#endif
#ifndef ST_STAGES
#define ST_STAGES 4
#endif
#ifndef ST_GROUP
#define ST_GROUP 16
#endif
#define ST_THREADS ((ST_BM / ST_WM) * (ST_BN / ST_WN) * 32)

/* spread_copies: split_k's tiles; before this step of each run of IF_K_UNROLL steps, a share of the next k-tile's
 * copies; its blocks rasterized in bands of SC_GROUP block rows (0: the grid's own order). */
#ifndef SC_COPIES_AT
#define SC_COPIES_AT 5
#endif
#ifndef SC_GROUP
#define SC_GROUP 0
#endif

#endif
