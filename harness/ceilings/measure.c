#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "../../kernels/ceilings/ceilings.h"
#include "../gpu/kernel_facts.h"
#include "../gpu/nvtx.h"
#include "measure.h"

#define WARMUPS 2
#define RUNS 10
/* DRAM: each of the copy's two buffers DRAM_COPY_L2S times the L2, so that nearly every byte comes from and goes
 * to DRAM (written lines still in the L2 when the stop event fires are counted, but are at most 1/32 of them). L2: each buffer 1 / L2_COPY_DIVISOR of the L2 (the pair a quarter of it), copied again and again in
 * one launch until about L2_COPY_BYTES have moved. */
#define DRAM_COPY_L2S 16
#define L2_COPY_DIVISOR 8
#define L2_COPY_BYTES (1.0 * (1 << 30))
/* Rounds per thread of the other kernels: on an H100 each launch takes 0.1 to 0.2 ms. */
#define SHARED_ROUNDS 32
#define FFMA_ROUNDS 64
#define DFMA_ROUNDS 32
/* Tensor: about 2 us a round on an H100 (32 wgmma of 128 SM clocks per SM), every type alike. */
#define TENSOR_ROUNDS 128
#define WORD_BYTES 16 /* a float4 */

enum kernel { COPY, SHARED_LOADS, FFMA, DFMA, TENSOR };

struct ceiling_buffers {
    float4 *in, *out;
    void *sink;
    size_t copy_bytes; /* each of in and out */
};

/* One ceiling: which kernel, how long, and what one launch moves or computes. */
struct ceiling_case {
    enum ceiling ceiling;
    enum kernel kernel;
    int blocks;
    size_t count;    /* COPY: 128-bit words per buffer */
    int repeats;     /* COPY: passes; the others: rounds */
    bool flush;      /* the L2 emptied before each timed launch */
    double work;     /* bytes or FLOP per launch */
    enum ceiling_tensor_type tensor; /* TENSOR: the source type */
    const char *not_measured;        /* why this ceiling cannot be measured here, or NULL */
};

static const void *kernel_function(enum kernel k, enum ceiling_tensor_type tensor)
{
    switch (k) {
    case COPY:
        return ceiling_copy_kernel();
    case SHARED_LOADS:
        return ceiling_shared_loads_kernel();
    case FFMA:
        return ceiling_ffma_kernel();
    case DFMA:
        return ceiling_dfma_kernel();
    case TENSOR:
        return ceiling_tensor_kernel(tensor);
    }
    return NULL;
}

static int launch(struct gpu *g, const struct ceiling_case *c, const struct ceiling_buffers *b, struct error *e)
{
    const char *why = "unknown ceiling kernel";
    switch (c->kernel) {
    case COPY:
        why = ceiling_copy(b->in, b->out, c->count, c->repeats, c->blocks, g->stream);
        break;
    case SHARED_LOADS:
        why = ceiling_shared_loads((float *)b->sink, c->repeats, c->blocks, g->stream);
        break;
    case FFMA:
        why = ceiling_ffma((float *)b->sink, c->repeats, c->blocks, g->stream);
        break;
    case DFMA:
        why = ceiling_dfma((double *)b->sink, c->repeats, c->blocks, g->stream);
        break;
    case TENSOR:
        why = ceiling_tensor(c->tensor, (float *)b->sink, c->repeats, c->blocks, g->stream);
        break;
    }
    if (why)
        return error_set(e, EXIT_RUNTIME, "launching the %s ceiling kernel: %s", ceiling_label(c->ceiling), why);
    return 0;
}

/* The shortest of RUNS timed launches, after WARMUPS untimed ones. Before each timed launch the stream is kept
 * busy (by an untimed launch of the same kernel, or by emptying the L2), so that the start event fires when that
 * work ends, with the launch already queued behind it: the time is the kernel's, not the host's. */
static int time_best(struct gpu *g, const struct ceiling_case *c, const struct ceiling_buffers *b, double *best_ms,
                     struct error *e)
{
    *best_ms = INFINITY;
    for (int i = 0; i < WARMUPS; ++i)
        if (launch(g, c, b, e))
            return e->code;
    for (int run = 0; run < RUNS; ++run) {
        float ms;
        if (c->flush ? gpu_flush_l2(g, e) : launch(g, c, b, e))
            return e->code;
        CUDA_TRY(e, cudaEventRecord(g->start, g->stream));
        if (launch(g, c, b, e))
            return e->code;
        CUDA_TRY(e, cudaEventRecord(g->stop, g->stream));
        CUDA_TRY(e, cudaEventSynchronize(g->stop));
        CUDA_TRY(e, cudaEventElapsedTime(&ms, g->start, g->stop));
        *best_ms = fmin(*best_ms, ms);
    }
    return 0;
}

/* Every SM filled: as many blocks per SM as fit at once, times the SMs. */
static int full_grid(const struct gpu *g, enum kernel k, enum ceiling_tensor_type tensor, int *blocks, struct error *e)
{
    struct kernel_facts f;
    if (kernel_facts_read(g, kernel_function(k, tensor), CEILING_THREADS, 0, &f, e))
        return e->code;
    if (f.blocks_per_sm < 1)
        return error_set(e, EXIT_RUNTIME, "no block of a ceiling kernel fits on an SM of %s", g->prop.name);
    *blocks = f.blocks_per_sm * g->prop.multiProcessorCount;
    return 0;
}

_Static_assert(CEILING_TENSOR_FP8 - CEILING_TENSOR_BF16 == CEILING_TENSOR_FP8_IN, "CEILINGS' tensor rows in the order of "
                                                                                 "ceiling_tensor_type");

/* The tensor ceilings, in CEILINGS order as ceiling_tensor_type is: 2 M N K FLOP per wgmma. Where this build or
 * this GPU has no wgmma, each case only says why, and is not measured. */
static int build_tensor_cases(const struct gpu *g, struct ceiling_case cases[CEILING_COUNT], struct error *e)
{
    const char *why = ceiling_tensor_unavailable(g->prop.major, g->prop.minor);
    for (int t = 0; t < CEILING_TENSOR_TYPES; ++t) {
        enum ceiling c = (enum ceiling)(CEILING_TENSOR_BF16 + t);
        int blocks = 0;
        if (!why && full_grid(g, TENSOR, (enum ceiling_tensor_type)t, &blocks, e))
            return e->code;
        double per_wgmma = 2.0 * CEILING_TENSOR_M * CEILING_TENSOR_N * ceiling_tensor_k((enum ceiling_tensor_type)t);
        cases[c] = (struct ceiling_case){.ceiling = c, .kernel = TENSOR, .blocks = blocks, .repeats = TENSOR_ROUNDS,
                                         .work = per_wgmma * CEILING_TENSOR_WGMMA_PER_ROUND * TENSOR_ROUNDS *
                                                 CEILING_TENSOR_WARPGROUPS * blocks,
                                         .tensor = (enum ceiling_tensor_type)t, .not_measured = why};
    }
    return 0;
}

static int build_cases(const struct gpu *g, const struct ceiling_buffers *b, struct ceiling_case cases[CEILING_COUNT],
                       struct error *e)
{
    size_t l2_count = (size_t)g->prop.l2CacheSize / L2_COPY_DIVISOR / WORD_BYTES;
    int l2_passes = (int)fmax(1.0, L2_COPY_BYTES / (2.0 * WORD_BYTES * (double)l2_count));
    int copy_blocks, shared_blocks, ffma_blocks, dfma_blocks;
    if (full_grid(g, COPY, 0, &copy_blocks, e) || full_grid(g, SHARED_LOADS, 0, &shared_blocks, e) ||
        full_grid(g, FFMA, 0, &ffma_blocks, e) || full_grid(g, DFMA, 0, &dfma_blocks, e))
        return e->code;
    double fma_flop = 2.0 * CEILING_FMA_CHAINS * CEILING_FMA_PER_CHAIN * CEILING_THREADS;
    size_t dram_count = b->copy_bytes / WORD_BYTES;
    cases[CEILING_DRAM] = (struct ceiling_case){.ceiling = CEILING_DRAM, .kernel = COPY, .blocks = copy_blocks,
                                                .count = dram_count, .repeats = 1, .flush = true,
                                                .work = 2.0 * WORD_BYTES * (double)dram_count};
    cases[CEILING_L2] = (struct ceiling_case){.ceiling = CEILING_L2, .kernel = COPY, .blocks = copy_blocks,
                                              .count = l2_count, .repeats = l2_passes,
                                              .work = 2.0 * WORD_BYTES * (double)l2_count * l2_passes};
    cases[CEILING_L1_SHARED] = (struct ceiling_case){
        .ceiling = CEILING_L1_SHARED, .kernel = SHARED_LOADS, .blocks = shared_blocks, .repeats = SHARED_ROUNDS,
        .work = (double)WORD_BYTES * CEILING_SHARED_LOADS_PER_ROUND * SHARED_ROUNDS * CEILING_THREADS * shared_blocks};
    cases[CEILING_FP32] = (struct ceiling_case){.ceiling = CEILING_FP32, .kernel = FFMA, .blocks = ffma_blocks,
                                                .repeats = FFMA_ROUNDS, .work = fma_flop * FFMA_ROUNDS * ffma_blocks};
    cases[CEILING_FP64] = (struct ceiling_case){.ceiling = CEILING_FP64, .kernel = DFMA, .blocks = dfma_blocks,
                                                .repeats = DFMA_ROUNDS, .work = fma_flop * DFMA_ROUNDS * dfma_blocks};
    return build_tensor_cases(g, cases, e);
}

static int allocate(const struct gpu *g, struct ceiling_buffers *b, struct error *e)
{
    b->copy_bytes = DRAM_COPY_L2S * (size_t)g->prop.l2CacheSize / WORD_BYTES * WORD_BYTES;
    if (gpu_require_free_memory(g, 2 * b->copy_bytes + WORD_BYTES, "the ceiling kernels", e))
        return e->code;
    CUDA_TRY(e, cudaMalloc((void **)&b->in, b->copy_bytes));
    CUDA_TRY(e, cudaMalloc((void **)&b->out, b->copy_bytes));
    CUDA_TRY(e, cudaMalloc(&b->sink, WORD_BYTES));
    /* Defined input, on the work stream, before anything is timed. */
    CUDA_TRY(e, cudaMemsetAsync(b->in, 0x3f, b->copy_bytes, g->stream));
    CUDA_TRY(e, cudaStreamSynchronize(g->stream));
    return 0;
}

static void release(struct ceiling_buffers *b, struct error *e)
{
    void *all[] = {b->in, b->out, b->sink};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (all[i])
            CUDA_RELEASE(e, cudaFree(all[i]));
}

int ceilings_measure(struct gpu *g, struct environment *env, struct error *e)
{
    struct ceiling_buffers b = {0};
    struct ceiling_case cases[CEILING_COUNT];
    double ms[CEILING_COUNT];
    nvtx_phase_begin(PHASE_CEILINGS, 0);
    if (allocate(g, &b, e) == 0 && build_cases(g, &b, cases, e) == 0)
        for (int c = 0; c < CEILING_COUNT && !e->code; ++c)
            if (!cases[c].not_measured)
                time_best(g, &cases[c], &b, &ms[c], e);
    release(&b, e);
    nvtx_end();
    if (e->code)
        return e->code;
    /* bytes or FLOP per millisecond / 10^6: GB/s or GFLOP/s; a ceiling not measured has no entry, and the reason */
    for (int c = 0; c < CEILING_COUNT; ++c)
        if (!cases[c].not_measured)
            env_add(env, ceiling_key((enum ceiling)c), "%.1f", cases[c].work / ms[c] / 1e6);
    if (cases[CEILING_TENSOR_BF16].not_measured)
        env_add(env, CEILING_TENSOR_NOT_MEASURED_KEY, "%s", cases[CEILING_TENSOR_BF16].not_measured);
    return 0;
}

void ceilings_from_environment(const struct environment *env, struct ceiling_rates *measured,
                               struct ceiling_rates *datasheet)
{
    struct gpu_figures figures = {env_value(env, "compute_capability"), env_number(env, "sm_count"),
                                  env_number(env, "sm_clock_max_mhz"), env_number(env, "memory_clock_max_mhz"),
                                  env_number(env, "memory_bus_width_bits")};
    for (int c = 0; c < CEILING_COUNT; ++c)
        measured->value[c] = env_number(env, ceiling_key((enum ceiling)c));
    *datasheet = ceiling_datasheet(&figures);
}
