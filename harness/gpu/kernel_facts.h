/*
 * What the device says of a kernel before it runs: its registers and shared
 * memory per block (cudaFuncGetAttributes), and how many of its blocks fit on
 * one SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor), hence its
 * theoretical occupancy: the resident warps over the SM's maximum. The
 * achieved occupancy, a hardware counter, sits beside it in the summary.
 */
#ifndef MEMSCOPE_KERNEL_FACTS_H
#define MEMSCOPE_KERNEL_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/error.h"
#include "gpu.h"

struct kernel_facts {
    bool known; /* false for a library call, whose kernels are not ours to ask about */
    int registers_per_thread;
    size_t static_smem_bytes, dynamic_smem_bytes;
    int threads_per_block;
    int blocks_per_sm;
    double theoretical_occupancy_pct;
};

int kernel_facts_read(const struct gpu *g, const void *kernel, int threads_per_block, size_t dynamic_smem_bytes,
                      struct kernel_facts *f, struct error *e);

struct CUfunc_st;
/* The same for a kernel known only by its driver function, as a launch showed it (cupti/subscriber.h): a kernel whose
 * launcher hides it (the pathology corpus). The driver's calls are reached through the runtime's entry points, so
 * that memscope still starts where there is no driver. */
int kernel_facts_of_function(const struct gpu *g, struct CUfunc_st *function, int threads_per_block,
                             size_t dynamic_smem_bytes, struct kernel_facts *f, struct error *e);

#endif
