#include <cuda.h>
#include <cuda_runtime_api.h>

#include "kernel_facts.h"

static struct kernel_facts facts_of(const struct gpu *g, int registers, size_t static_smem, int threads_per_block,
                                    size_t dynamic_smem_bytes, int blocks)
{
    int warps_per_block = (threads_per_block + g->prop.warpSize - 1) / g->prop.warpSize;
    int max_warps = g->prop.maxThreadsPerMultiProcessor / g->prop.warpSize;
    return (struct kernel_facts){
        .known = true,
        .registers_per_thread = registers,
        .static_smem_bytes = static_smem,
        .dynamic_smem_bytes = dynamic_smem_bytes,
        .threads_per_block = threads_per_block,
        .blocks_per_sm = blocks,
        .theoretical_occupancy_pct = 100.0 * blocks * warps_per_block / max_warps,
    };
}

/* A driver call by name, through the runtime (memscope links no libcuda). */
static int driver_entry(const char *name, void **fn, struct error *e)
{
    enum cudaDriverEntryPointQueryResult found;
    CUDA_TRY(e, cudaGetDriverEntryPointByVersion(name, fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess)
        return error_set(e, EXIT_RUNTIME, "the CUDA driver has no %s", name);
    return 0;
}

static int driver_try(CUresult rc, const char *call, struct error *e)
{
    return rc == CUDA_SUCCESS ? 0 : error_set(e, EXIT_RUNTIME, "%s failed: CUresult %d", call, (int)rc);
}

/* The context's function for what a launch named: CUDA 13's runtime launches a kernel handle (CUkernel) where the
 * module is context-independent, which the function queries refuse (CUDA_ERROR_INVALID_HANDLE, seen on the H100 for
 * the pathology corpus); the driver gives its function in the current context. */
static int function_in_context(CUfunction launched, CUresult (*attribute)(int *, CUfunction_attribute, CUfunction),
                               CUfunction *out, struct error *e)
{
    CUresult (*of_kernel)(CUfunction *, CUkernel);
    int registers;
    *out = launched;
    if (attribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, launched) != CUDA_ERROR_INVALID_HANDLE)
        return 0;
    if (driver_entry("cuKernelGetFunction", (void **)&of_kernel, e))
        return e->code;
    return driver_try(of_kernel(out, (CUkernel)launched), "cuKernelGetFunction", e);
}

int kernel_facts_of_function(const struct gpu *g, struct CUfunc_st *launched, int threads_per_block,
                             size_t dynamic_smem_bytes, struct kernel_facts *f, struct error *e)
{
    CUresult (*attribute)(int *, CUfunction_attribute, CUfunction);
    CUresult (*occupancy)(int *, CUfunction, int, size_t);
    CUfunction function;
    int registers = 0, static_smem = 0, blocks = 0;
    *f = (struct kernel_facts){0};
    if (driver_entry("cuFuncGetAttribute", (void **)&attribute, e) ||
        driver_entry("cuOccupancyMaxActiveBlocksPerMultiprocessor", (void **)&occupancy, e) ||
        function_in_context(launched, attribute, &function, e) ||
        driver_try(attribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function), "cuFuncGetAttribute", e) ||
        driver_try(attribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function), "cuFuncGetAttribute", e) ||
        driver_try(occupancy(&blocks, function, threads_per_block, dynamic_smem_bytes),
                   "cuOccupancyMaxActiveBlocksPerMultiprocessor", e))
        return e->code;
    *f = facts_of(g, registers, (size_t)static_smem, threads_per_block, dynamic_smem_bytes, blocks);
    return 0;
}

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
    *f = facts_of(g, attributes.numRegs, attributes.sharedSizeBytes, threads_per_block, dynamic_smem_bytes, blocks);
    return 0;
}
