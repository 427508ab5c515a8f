/*
 * A CUDA program for memscope-profile's GPU test (test_profile_gpu.c) that increments memory from each of CUDA's
 * allocators, whose writes a replay must undo between its passes as it undoes cudaMalloc's (program_increments.cu):
 * a stream-ordered pool (cudaMallocAsync: PyTorch's backend:cudaMallocAsync), virtual memory mapped by the driver
 * (cuMemCreate and cuMemMap: PyTorch's expandable_segments), managed memory, and pinned host memory mapped into the
 * device. increment adds 1 to each int of a buffer, three launches a buffer. It prints "allocators: correct" and
 * exits 0, or names each buffer that is wrong and exits 1 (2: a CUDA call failed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda.h>
#include <cuda_runtime.h>

#define ELEMENTS (1 << 20)
#define BYTES (ELEMENTS * sizeof(int))
#define THREADS 256
#define LAUNCHES 3

__global__ void increment(int *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1;
}

static void check(cudaError_t rc, const char *what)
{
    if (rc != cudaSuccess) {
        fprintf(stderr, "program_allocators: %s: %s\n", what, cudaGetErrorString(rc));
        exit(2);
    }
}

static void check_driver(CUresult rc, const char *what)
{
    if (rc != CUDA_SUCCESS) {
        fprintf(stderr, "program_allocators: %s: CUDA error %d\n", what, (int)rc);
        exit(2);
    }
}

/* The driver's function by name, through the runtime (the program links no driver library). */
static void *driver(const char *name)
{
    void *fn = NULL;
    cudaDriverEntryPointQueryResult found;
    check(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found), name);
    if (found != cudaDriverEntryPointSuccess || !fn) {
        fprintf(stderr, "program_allocators: no driver function %s\n", name);
        exit(2);
    }
    return fn;
}

/* BYTES of device memory the driver creates and maps at an address it reserves, readable and writable by device 0. */
static int *mapped_virtual_memory(void)
{
    CUresult (*granularity)(size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags) =
        (CUresult(*)(size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags))driver(
            "cuMemGetAllocationGranularity");
    CUresult (*create)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long) =
        (CUresult(*)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long))driver(
            "cuMemCreate");
    CUresult (*reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long) =
        (CUresult(*)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long))driver("cuMemAddressReserve");
    CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long) =
        (CUresult(*)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long))driver("cuMemMap");
    CUresult (*set_access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t) =
        (CUresult(*)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t))driver("cuMemSetAccess");
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t grain = 0, size;
    check_driver(granularity(&grain, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), "cuMemGetAllocationGranularity");
    size = (BYTES + grain - 1) / grain * grain;
    CUmemGenericAllocationHandle handle;
    CUdeviceptr address;
    check_driver(create(&handle, size, &prop, 0), "cuMemCreate");
    check_driver(reserve(&address, size, 0, 0, 0), "cuMemAddressReserve");
    check_driver(map(address, size, 0, handle, 0), "cuMemMap");
    CUmemAccessDesc access = {};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    check_driver(set_access(address, size, &access, 1), "cuMemSetAccess");
    return (int *)(uintptr_t)address;
}

struct buffer {
    const char *allocator;
    int *device; /* where the kernel writes */
};

int main(void)
{
    static int host[ELEMENTS];
    struct buffer b[4] = {
        {"cudaMallocAsync", NULL}, {"cuMemCreate", NULL}, {"cudaMallocManaged", NULL}, {"cudaHostAlloc (mapped)", NULL}};
    int *pinned;
    check(cudaMallocAsync((void **)&b[0].device, BYTES, 0), "cudaMallocAsync");
    b[1].device = mapped_virtual_memory();
    check(cudaMallocManaged((void **)&b[2].device, BYTES, cudaMemAttachGlobal), "cudaMallocManaged");
    check(cudaHostAlloc((void **)&pinned, BYTES, cudaHostAllocMapped), "cudaHostAlloc");
    check(cudaHostGetDevicePointer((void **)&b[3].device, pinned, 0), "cudaHostGetDevicePointer");
    for (int k = 0; k < 4; ++k)
        check(cudaMemset(b[k].device, 0, BYTES), "cudaMemset");
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < LAUNCHES; ++i) {
            increment<<<ELEMENTS / THREADS, THREADS>>>(b[k].device, ELEMENTS);
            check(cudaGetLastError(), "increment");
        }
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    int wrong_buffers = 0;
    for (int k = 0; k < 4; ++k) {
        check(cudaMemcpy(host, b[k].device, BYTES, cudaMemcpyDefault), "cudaMemcpy");
        int wrong = 0, first = 0;
        for (int i = 0; i < ELEMENTS; ++i)
            if (host[i] != LAUNCHES && wrong++ == 0)
                first = host[i];
        if (wrong) {
            printf("allocators: wrong: %s: %d of %d elements are not %d (one is %d)\n", b[k].allocator, wrong,
                   ELEMENTS, LAUNCHES, first);
            ++wrong_buffers;
        }
    }
    if (wrong_buffers)
        return 1;
    printf("allocators: correct\n");
    return 0;
}
