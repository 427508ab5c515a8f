/*
 * Emptying the L2 before a measurement, as Nsight Compute's cache control
 * does: reading a buffer several times the size of the L2 evicts everything,
 * and since the sweep only reads, dirty lines left by earlier work are written
 * back during the sweep, not during the kernel that follows. The sweep's own
 * lines, all clean, are then discarded (PTX discard.global.L2, compute
 * capability 8.0 and newer), so the kernel finds free ways: otherwise it
 * would evict some of its own output to make room, and those write-backs
 * would count as its DRAM traffic where ncu counts none. A memset would evict
 * as well, but leave the L2 full of dirty lines whose write-back the next
 * kernel would be charged for, in time and in DRAM bytes.
 */
#ifndef MEMSCOPE_CACHE_SWEEP_H
#define MEMSCOPE_CACHE_SWEEP_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* buffer holds zeros; bytes a multiple of 128; sink receives a value only to keep the reads from being
 * optimised away. */
const char *cache_sweep(void *buffer, size_t bytes, int *sink, cudaStream_t stream);

/* The sweep's kernels, as a trace names them: no variant's work. */
#define CACHE_SWEEP_KERNEL_NAMES {"cache_sweep_kernel", "l2_discard_kernel"}

#ifdef __cplusplus
}
#endif

#endif
