/*
 * Emptying the L2 before a measurement: reading a buffer several times the size of the
 * L2 evicts everything, and since the sweep only reads, dirty lines left by
 * earlier work are written back during the sweep, not during the kernel that
 * follows. A memset would evict as well, but leave the L2 full of dirty lines
 * whose write-back the next kernel would be charged for, in time and in DRAM
 * bytes.
 */
#ifndef MEMSCOPE_CACHE_SWEEP_H
#define MEMSCOPE_CACHE_SWEEP_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* bytes a multiple of 16; sink receives a value only to keep the reads from being optimised away. */
const char *cache_sweep(const void *buffer, size_t bytes, int *sink, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
