/*
 * The labelled corpus of issue 40: small kernels with ONE planted pathology each, whose cause is known by
 * construction, each labelled with the first finding the diagnosis must give it. Where the fix is natural the
 * corpus also holds the fixed sibling (the same useful work without the pathology), labelled with the bound it then
 * reaches, so that the gain of the fix can be measured. README.md beside this file gives each case's construction
 * and its counters in closed form. Sizes are for an H100 (132 SMs, 50 MB L2, 80 GB): about 1.1 GB of buffers.
 *
 * PATHOLOGY_CASES(X) has one row per case: X(name, "expected first finding", "fixed sibling's name" or "",
 * launcher). Every launcher enqueues exactly one kernel on the stream (no memset, no copy) and returns NULL when
 * it was enqueued, else a static reason; it reads and writes only the shared buffers, so the cases may run in
 * any order and any number of times. C-compatible; the kernels know nothing of CUPTI or the harness.
 */
#ifndef MEMSCOPE_PATHOLOGY_H
#define MEMSCOPE_PATHOLOGY_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Useful elements each global-access case copies (16 Mi floats: 64 MiB read, 64 MiB written). */
#define PATHOLOGY_ELEMENTS (1 << 24)
/* Float stride of the uncoalesced cases (every lane its own 32-byte sector: 32 sectors per request). */
#define PATHOLOGY_UNCOALESCED_STRIDE 8
/* Float stride of the partly coalesced case (16 sectors per request, 25 % of each sector used). */
#define PATHOLOGY_PARTIAL_STRIDE 4
/* Both buffers hold PATHOLOGY_ELEMENTS x the largest stride, plus a row of slack for the misaligned case. */
#define PATHOLOGY_BUFFER_FLOATS ((size_t)PATHOLOGY_ELEMENTS * PATHOLOGY_UNCOALESCED_STRIDE + 64)
/* src[i] after pathology_allocate: exact in a float, so a copy can be checked element by element. */
#define PATHOLOGY_SOURCE_VALUE(i) ((float)((size_t)(i) & 0xFFFFFFu))
/* The pointer chase: rows of 32 unsigned words (128 bytes, one coalesced request per warp), every word of row r
 * holding the next row, PATHOLOGY_CHASE_NEXT(r): one cycle through all the rows, neighbours far apart. */
#define PATHOLOGY_CHASE_ROWS (1 << 16)
#define PATHOLOGY_CHASE_STEPS 2048
/* One warp a block and a block per SM of an H100 (132), each its own chain from row PATHOLOGY_CHASE_START(w): every
 * SM waits on its own loads (one block in all would read as too few blocks, not as latency) */
#define PATHOLOGY_CHASE_WARPS 132
#define PATHOLOGY_CHASE_START(warp) ((unsigned)(warp) * (PATHOLOGY_CHASE_ROWS / PATHOLOGY_CHASE_WARPS))
#define PATHOLOGY_CHASE_NEXT(row) (((row) * 40509u + 12345u) & (PATHOLOGY_CHASE_ROWS - 1u)) /* a full-period LCG */

struct pathology_buffers {
    float *src;        /* PATHOLOGY_BUFFER_FLOATS floats, src[i] = PATHOLOGY_SOURCE_VALUE(i); only read */
    float *dst;        /* PATHOLOGY_BUFFER_FLOATS floats, every case's output (zeroed by pathology_allocate) */
    unsigned *chase;   /* PATHOLOGY_CHASE_ROWS x 32 words, the chase's cycle; only read */
    unsigned *counter; /* one word every thread of atomic_one_address adds its 1s to, and each block of
                        * scheduled_wgmma_gemm its ticket (never reset by a launcher) */
    cublasHandle_t blas; /* cublas_bf16_gemm's, its math mode the suite's */
};

/* What the checkable cases leave in dst and counter (README.md gives the rest of each launch shape). */
#define PATHOLOGY_SHARED_THREADS (132 * 8 * 256) /* shared_*: one float per thread */
#define PATHOLOGY_SHARED_LOAD_ROUNDS 32          /* shared_load_*: each thread loads its tile row 32 times */
#define PATHOLOGY_SHARED_STORE_ROUNDS 256        /* shared_store_*: each thread stores its 4 words 256 times */
#define PATHOLOGY_FMA_THREADS (132 * 8 * 256)    /* fma_chain, divergent_fma, double_literal: one float per thread */
#define PATHOLOGY_ATOMIC_ADDS (132u * 8u * 256u * 16u) /* atomic_one_address adds 1 this many times */
#define PATHOLOGY_LOCAL_THREADS (132 * 8 * 256)  /* local_array: one float per thread, the same for all */
#define PATHOLOGY_LOCAL_WORDS 64
#define PATHOLOGY_LOCAL_ROUNDS 256
#define PATHOLOGY_LOCAL_SEED 7u
#define PATHOLOGY_REDUCE_THREADS 256 /* *_reduction: dst[b] is the sum of src's block b of 256 floats */
#define PATHOLOGY_ROW_FLOATS 4096    /* layernorm_rows: each row of 4096 floats normalized into dst */
/* vector_tail: dst[i] = 2 src[i] + 1 for i below this, on a GPU of sms SMs (5.17 waves of 8 blocks of 256 threads,
 * 16 floats each) */
#define PATHOLOGY_TAIL_FLOATS(sms) ((size_t)(8 * (sms) * 517 / 100) * 256 * 16)
/* cublas_bf16_gemm, scheduled_wgmma_gemm: P (dst) = M (src) x N (src past M), bf16, this width square; src's floats
 * read as bf16 pairs */
#define PATHOLOGY_GEMM_WIDTH 4096

/* NULL when every buffer is allocated and filled (the filling is complete when it returns), else a static reason
 * with nothing left allocated. */
const char *pathology_allocate(struct pathology_buffers *b);
/* The current device's SMs into *sms (the cases sized in waves): NULL, else a static reason. */
const char *pathology_sm_count(int *sms);
/* NULL when every buffer was freed (the pointers are then NULL), else a static reason. Safe on a zeroed struct. */
const char *pathology_release(struct pathology_buffers *b);

/* The cases. Pathologies first, each with its fixed sibling (or ""); then the siblings and clean bound cases. */
#define PATHOLOGY_CASES(X)                                                                                         \
    X(uncoalesced_loads, "uncoalesced_global_loads", "coalesced_copy", pathology_uncoalesced_loads)                \
    X(uncoalesced_stores, "uncoalesced_global_stores", "coalesced_copy", pathology_uncoalesced_stores)             \
    X(strided_loads, "strided_global_access", "coalesced_copy", pathology_strided_loads)                           \
    X(misaligned_loads, "misaligned_global_access", "aligned_loads", pathology_misaligned_loads)                   \
    X(shared_load_conflicts, "shared_load_conflicts", "shared_load_padded", pathology_shared_load_conflicts)        \
    X(shared_store_conflicts, "shared_store_conflicts", "shared_store_padded", pathology_shared_store_conflicts)    \
    X(local_array, "local_memory_spills", "", pathology_local_array)                                               \
    X(divergent_fma, "branch_divergence", "fma_chain", pathology_divergent_fma)                                    \
    X(atomic_one_address, "atomic_contention", "", pathology_atomic_one_address)                                   \
    X(register_hog_copy, "occupancy_registers", "copy_loop", pathology_register_hog_copy)                          \
    X(shared_hog_copy, "occupancy_shared_memory", "copy_loop", pathology_shared_hog_copy)                          \
    X(tiny_block_copy, "occupancy_block_size", "copy_loop", pathology_tiny_block_copy)                             \
    X(eight_blocks, "too_few_blocks", "fma_chain", pathology_eight_blocks)                                         \
    X(one_block_tail, "partial_last_wave", "full_wave", pathology_one_block_tail)                                  \
    X(tiny_kernel, "launch_overhead", "", pathology_tiny_kernel)                                                   \
    X(double_literal, "fp64_in_fp32_kernel", "fma_chain", pathology_double_literal)                                \
    X(modulo_reduction, "type_conversions", "sequential_reduction", pathology_modulo_reduction)                    \
    X(one_element_fill, "launch_overhead", "", pathology_one_element_fill)                                         \
    X(coalesced_copy, "dram_bound", "", pathology_coalesced_copy)                                                  \
    X(aligned_loads, "dram_bound", "", pathology_aligned_loads)                                                    \
    X(copy_loop, "dram_bound", "", pathology_copy_loop)                                                            \
    X(shared_load_padded, "l1_bound", "", pathology_shared_load_padded)                                            \
    X(shared_store_padded, "l1_bound", "", pathology_shared_store_padded)                                          \
    X(fma_chain, "issue_bound", "", pathology_fma_chain)                                                           \
    X(full_wave, "issue_bound", "", pathology_full_wave)                                                           \
    X(l2_stream, "l2_bound", "", pathology_l2_stream)                                                              \
    X(mma_loop, "tensor_bound", "", pathology_mma_loop)                                                            \
    X(pointer_chase, "latency_bound", "", pathology_pointer_chase)                                                 \
    X(sequential_reduction, "l1_bound", "", pathology_sequential_reduction)                                        \
    X(vector_tail, "dram_bound", "", pathology_vector_tail)                                                        \
    X(layernorm_rows, "dram_bound", "", pathology_layernorm_rows)                                                  \
    X(cublas_bf16_gemm, "tensor_bound", "", pathology_cublas_bf16_gemm)                                            \
    X(scheduled_wgmma_gemm, "tensor_bound", "", pathology_scheduled_wgmma_gemm)

#define PATHOLOGY_DECLARE_LAUNCHER(name, expected, sibling, launcher)                                              \
    const char *launcher(const struct pathology_buffers *b, cudaStream_t stream);
PATHOLOGY_CASES(PATHOLOGY_DECLARE_LAUNCHER)
#undef PATHOLOGY_DECLARE_LAUNCHER

/* The table of the cases, in PATHOLOGY_CASES's order (pathology_cases.c): what --validate and the tests walk. */
typedef const char *(*pathology_launcher)(const struct pathology_buffers *b, cudaStream_t stream);
struct pathology_case {
    const char *name, *expected, *sibling; /* the case, its planted cause, its fixed sibling or "" */
    pathology_launcher launch;
};
#define PATHOLOGY_COUNT_ONE(name, expected, sibling, launcher) +1
enum { PATHOLOGY_CASE_COUNT = 0 PATHOLOGY_CASES(PATHOLOGY_COUNT_ONE) };
#undef PATHOLOGY_COUNT_ONE
extern const struct pathology_case pathology_cases[PATHOLOGY_CASE_COUNT];

#ifdef __cplusplus
}
#endif

#endif
