/*
 * stream_k: taller_tiles with the work split along k where whole tiles leave SMs idle (tensor_tiles.h,
 * stream_k_chosen). A persistent kernel of whole tiles takes whole rounds: at W = 1536, 72 tiles of 128 x 256 for
 * 132 SMs, one round with 60 SMs idle (taller_tiles' 96 tiles of 192 x 128 leave 36); at 5120, 800 tiles take 7
 * rounds, the last of 8 tiles. Here one block per SM deals the tiles of all but the last whole round as before
 * (tensor_ws.cuh, STREAM_K); the k-steps of the rest are cut into one equal run a block, which may begin and end inside
 * a tile. A run that begins inside a tile writes its FP32 accumulators to a partial of its own and raises a flag; the
 * block whose run began the tile waits for the flags of the runs after it, adds their partials and stores the tile.
 * At 1536 every block then takes 13 or 14 of the 1,728 k-steps; at 5120 five rounds are dealt whole and 140 tiles
 * split, 85 k-steps a block instead of a round of 80 for 8 blocks and another of 80 for all. Where the rule keeps
 * whole tiles, this rung is taller_tiles.
 *
 * The partials and flags are this file's (partials sized for SK_MAX_BLOCKS blocks of 128 x 256 floats); the flags
 * hold the number of the launch that raised them, counted here, so nothing is cleared between launches and a
 * replayed launch (its memory restored) finds its flags as they were. Two launches of this rung at once on one device
 * would share them: the suite runs one at a time.
 *
 * Counters that should move against taller_tiles where the split is chosen: SM busy up (every SM works to the end),
 * time down by the idle part of the last round, less the fixup; L2 bytes up by the partials (128 KB written and read
 * a split tile); tensor pipe busy up with SM busy.
 */
#include "tensor_ws.cuh"

#define SK_MAX_BLOCKS 144 /* a full GH100: every Hopper has as many SMs or fewer */

static __device__ float sk_partials[SK_MAX_BLOCKS * WS_BM * WS_BN];
static __device__ unsigned sk_flags[SK_MAX_BLOCKS * 2];

/* Whether the split is taken at this width on the current device; why not where the device says nothing. */
static const char *split_choice(int width, int *split)
{
    int sms;
    const char *why = ws_device_sms(&sms);
    *split = why ? 0 : stream_k_chosen(width, width, width, sms);
    return why;
}

/* This launch's partials, flags and number (the kernel's split point is the launcher's). */
static const char *split_for_launch(ws_split *split)
{
    static unsigned epoch;
    int sms;
    const char *why = ws_device_sms(&sms);
    if (why)
        return why;
    if (sms > SK_MAX_BLOCKS)
        return MATMUL_REFUSED "more SMs than stream_k's partials have room for";
    cudaError_t rc = cudaGetSymbolAddress((void **)&split->partials, sk_partials);
    if (rc == cudaSuccess)
        rc = cudaGetSymbolAddress((void **)&split->flags, sk_flags);
    if (rc != cudaSuccess)
        return cudaGetErrorString(rc);
    split->epoch = ++epoch ? epoch : ++epoch; /* 0 is every flag's first value */
    return NULL;
}

extern "C" const char *matmul_stream_k(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    int split;
    const char *why = split_choice(o->width, &split);
    if (why)
        return why;
    if (!split)
        return matmul_taller_tiles(o, grid, block);
    if (!tensor_shape_matches(grid, block, o->width, WS_BM, WS_BN, TT_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    ws_split s = {};
    if ((why = split_for_launch(&s)))
        return why;
    return launch_ws_gemm<true, false, true, false, WS_BN, 2, true>(o, grid, dim3(WS_THREADS), s);
}

/* The split kernel where it is taken, else taller_tiles' choice; NULL where the device cannot be asked. */
extern "C" const void *matmul_stream_k_kernel(int width, size_t *dynamic_smem_bytes, unsigned *threads)
{
    int split;
    if (split_choice(width, &split))
        return NULL;
    if (!split)
        return matmul_taller_tiles_kernel(width, dynamic_smem_bytes, threads);
    *dynamic_smem_bytes = ws_shape<false, true>::SMEM, *threads = WS_THREADS;
    return (const void *)ws_gemm_kernel<true, false, true, WS_BN, 2, true>;
}
