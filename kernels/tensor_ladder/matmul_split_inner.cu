/*
 * split_inner: square_tiles with each tile's k-loop cut into parts, a job each, where whole tiles leave the GPU half
 * idle or run narrow (tensor_tiles.h, split_inner_tile): products of few outputs and a long k, as a weight gradient's
 * (1024 x 1024 outputs summed over 8192 tokens) or a small batch's (128 x 4096 x 4096). At 1024 x 1024 x 8192
 * square_tiles takes 128 tiles of 128 x 64, whose narrow wgmma cost 176 % of 128 x 256's time an output; split_inner
 * takes 64 tiles of 128 x 128 in two parts, 128 jobs of half the k-loop. A part is a job of the persistent kernel
 * (tensor_ws.cuh, SPLIT): a part but the tile's first writes its FP32 accumulators to a partial and raises a flag; the
 * first part's block, the tile's owner, adds the partials and stores the tile. Every job runs at once (the rule takes
 * no more jobs than SMs), so the owner waits for parts that run beside it. Where the rule keeps whole tiles, this rung
 * is square_tiles.
 *
 * The partials and flags are this file's, sized for SI_MAX_JOBS jobs of 128 x 256 floats; the flags hold the number
 * of the launch that raised them, counted here, so nothing is cleared between launches and a replayed launch finds its
 * flags as they were. Two launches of this rung at once on one device would share them: the suite runs one at a time.
 *
 * Counters that should move against square_tiles where the split is chosen: time down by the rule's estimate (35 % at
 * 1024 x 1024 x 8192: the narrow tile's cost against the wider tile's and the fixup); tensor pipe busy up (wider
 * wgmma); L2-to-SM bytes per operation down (a k-tile of 128 x 128 feeds twice 128 x 64's outputs for 4/3 its bytes);
 * L2 writes up by the partials (64 KB a part of 128 x 128).
 */
#include "tensor_ws.cuh"

#define SI_MAX_JOBS 144 /* a full GH100's SMs: every Hopper has as many or fewer */

static __device__ __align__(16) float si_partials[SI_MAX_JOBS * WS_BM * WS_BN]; /* float4 a thread */
static __device__ unsigned si_flags[SI_MAX_JOBS * 2];

/* The rule's choice at this shape on the current device, or why the device says nothing. */
static const char *split_on_device(struct matmul_shape shape, struct ws_split_tile *choice)
{
    int sms;
    const char *why = ws_device_sms(&sms);
    if (!why)
        *choice = split_inner_tile(shape.rows, shape.cols, shape.inner, sms);
    return why;
}

/* This launch's partials, flags and number, or why not. */
static const char *split_for_launch(struct matmul_shape shape, struct ws_split_tile choice, ws_split *split)
{
    static unsigned epoch;
    const long long jobs = (long long)((shape.rows + choice.tile.bm - 1) / choice.tile.bm) *
                           ((shape.cols + choice.tile.bn - 1) / choice.tile.bn) * choice.splits;
    if (jobs > SI_MAX_JOBS)
        return MATMUL_REFUSED "more parts of tiles than split_inner's partials have room for";
    cudaError_t rc = cudaGetSymbolAddress((void **)&split->partials, si_partials);
    if (rc == cudaSuccess)
        rc = cudaGetSymbolAddress((void **)&split->flags, si_flags);
    if (rc != cudaSuccess)
        return cudaGetErrorString(rc);
    split->splits = choice.splits;
    split->epoch = ++epoch ? epoch : ++epoch; /* 0 is every flag's first value */
    return NULL;
}

template <int BN> static const void *split_kernel(size_t *dynamic_smem_bytes, unsigned *threads)
{
    *dynamic_smem_bytes = ws_shape<false, true, BN>::SMEM, *threads = WS_THREADS;
    return (const void *)ws_gemm_kernel<true, false, true, BN, 2, false, false, false, true>;
}

extern "C" const char *matmul_split_inner(const struct matmul_operands *o, dim3 grid, dim3 block)
{
    struct ws_split_tile choice;
    ws_split split;
    const char *why = split_on_device(o->shape, &choice);
    if (why)
        return why;
    if (choice.splits == 1)
        return matmul_square_tiles(o, grid, block);
    if (!tensor_shape_matches(grid, block, o->shape, WS_BM, WS_BN, TT_THREADS))
        return TENSOR_SHAPE_MISMATCH;
    if ((why = split_for_launch(o->shape, choice, &split)))
        return why;
    if (choice.tile.bn == WS_BN)
        return launch_ws_gemm<true, false, true, true, WS_BN, 2, false, false, false, true>(o, grid, dim3(WS_THREADS),
                                                                                             nullptr, split);
    return launch_ws_gemm<true, false, true, true, 128, 2, false, false, false, true>(o, grid, dim3(WS_THREADS),
                                                                                       nullptr, split);
}

/* The split kernel where it is taken, else square_tiles' choice; NULL where the device cannot be asked. */
extern "C" const void *matmul_split_inner_kernel(struct matmul_shape shape, size_t *dynamic_smem_bytes,
                                                 unsigned *threads)
{
    struct ws_split_tile choice;
    if (split_on_device(shape, &choice))
        return NULL;
    if (choice.splits == 1)
        return matmul_square_tiles_kernel(shape, dynamic_smem_bytes, threads);
    return choice.tile.bn == WS_BN ? split_kernel<WS_BN>(dynamic_smem_bytes, threads)
                                   : split_kernel<128>(dynamic_smem_bytes, threads);
}
