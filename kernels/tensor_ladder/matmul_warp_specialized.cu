/*
 * warp_specialized: tma_wgmma's machinery split by role (tensor_ws.cuh). A producer warpgroup (one thread issuing
 * TMA copies, its registers handed back with setmaxnreg.dec to 40) and two consumer warpgroups (setmaxnreg.inc to
 * 232, 64 x 256 each with wgmma.m64n256k16: 128 accumulators a thread) talk only through a full and an empty
 * mbarrier per slot of a 4-stage ring of 48 KB k-tiles: no block-wide barrier in the k-loop, the producer always
 * STAGES tiles ahead, and each consumer keeps one k-tile of wgmma in flight while it releases the slot before.
 * The block tile grows to 128 x 256, so each byte of A brought from global memory feeds twice the tensor work of
 * tma_wgmma's 128 x 128 (A read W/256 times instead of W/128); B's reuse is unchanged.
 *
 * Counters that should move against tma_wgmma: barrier stalls (BAR) gone from the consumers, replaced by waits on
 * mbarriers (SYNCS) that are short when the ring is full; L2-to-SM bytes per tensor operation down by a
 * quarter (48 KB a k-tile for twice the work of 32 KB);
 * tensor pipe busy up toward 80-90 %; registers per thread: 168 at launch (the cap of 384 threads), reallocated
 * to 40 / 232 (no spills: check -Xptxas -v and the SASS for LDL/STL).
 */
#include "tensor_ws.cuh"

TENSOR_WS_GEMM(matmul_warp_specialized, false, false, false, false)
