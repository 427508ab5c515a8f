/*
 * cluster_multicast: tma_store with 2-CTA clusters on vertically adjacent tiles (tensor_ws.cuh). Both CTAs need
 * the same 64 x 256 k-tile of N; each copies half of it (two of the four 64-column boxes) with
 * .multicast::cluster, which writes the box into both CTAs' shared memory and counts its bytes on both CTAs'
 * full barriers. A slot is refilled only when the consumers of both CTAs have released it: the empty barrier
 * counts 4 arrivals, two of them from the other CTA (mbarrier.arrive on a mapa'd address, CTA-scope release as
 * in CUTLASS: the wgmma reads it announces are over before it is made). The grid is the number of clusters that
 * can be resident at once (cudaOccupancyMaxActiveClusters), not SMs / 2: the tiles are dealt in advance, and a
 * cluster that found no free pair of SMs in a GPC would run its whole share after the rest.
 *
 * Counters that should move against tma_store: L2-to-SM traffic (lts__t_sectors_srcunit_tex) down by a third
 * (per CTA and k-tile 16 KB of A + 16 KB of B fetched instead of 16 + 32), L2 throughput % down; time down only
 * where the L2 feed limited the tensor pipe (the largest widths). On the H100 it did not pay: in the sweep of
 * 2026-11-27 (docs/tensor-ladder.md; the sweep's timing, not memscope's) this design ran at 95 / 100 / 89 % of
 * cuBLAS at W = 2048 / 4096 / 8192 against 98 / 100 / 94 % without clusters, and with the direct-store epilogue
 * at the level of persistent (78 / 90 / 87 % against 81 / 90 / 85 %): the third of L2 traffic saved buys no
 * time here, and the pairing (the slower CTA of a cluster holds back both producers) costs a little.
 */
#include "tensor_ws.cuh"

TENSOR_WS_GEMM(matmul_cluster_multicast, true, true, true, false)
