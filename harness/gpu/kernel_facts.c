#include <cuda_runtime_api.h>

#include "kernel_facts.h"

int kernel_facts_read(const struct gpu *g, const void *kernel, int threads_per_block, size_t dynamic_smem_bytes,
                      struct kernel_facts *f, struct error *e)
{
    struct cudaFuncAttributes attributes;
    int blocks = 0;
    *f = (struct kernel_facts){0};
    CUDA_TRY(e, cudaFuncGetAttributes(&attributes, kernel));
    /* Past 48 KB a block gets its dynamic shared memory only once the kernel's limit is raised, which its
     * launcher does at its first launch: without this the device would count no block as fitting. */
    if (dynamic_smem_bytes > g->prop.sharedMemPerBlock)
        CUDA_TRY(e, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dynamic_smem_bytes));
    CUDA_TRY(e, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads_per_block, dynamic_smem_bytes));
    int warps_per_block = (threads_per_block + g->prop.warpSize - 1) / g->prop.warpSize;
    int max_warps = g->prop.maxThreadsPerMultiProcessor / g->prop.warpSize;
    *f = (struct kernel_facts){
        .known = true,
        .registers_per_thread = attributes.numRegs,
        .static_smem_bytes = attributes.sharedSizeBytes,
        .dynamic_smem_bytes = dynamic_smem_bytes,
        .threads_per_block = threads_per_block,
        .blocks_per_sm = blocks,
        .theoretical_occupancy_pct = 100.0 * blocks * warps_per_block / max_warps,
    };
    return 0;
}
