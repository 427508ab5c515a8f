#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../common/paths.h"
#include "../../kernels/truth/truth.h"
#include "../profile/metric_rows.h"
#include "../results/metrics_csv.h"
#include "../results/validate_csv.h"
#include "../ceilings/measure.h"
#include "../gpu/nvtx.h"
#include "case_source.h"
#include "diagnosis_corpus.h"
#include "truth_model.h"
#include "validate.h"

#define MIN_COPY_THREADS (1 << 22) /* long enough (tens of microseconds) for durations to compare */
#define MAX_STRIDE 32
#define MAX_OFFSET 32
#define SHARED_BLOCKS 264
/* 1 GiB per matrix: far beyond the L2, so the DRAM counts are the matrix itself. */
#define TRANSPOSE_WIDTH 16384
#define MAX_EXPECT 5
/* The mma.sync kernel: two blocks per SM of the H100's 132, 4 warps each, 100 mma.sync per warp. */
#define MMA_BLOCKS 264
#define MMA_WARPS 4
#define MMA_REPETITIONS 100
/* The largest GEMM: 4096 x 4096 x 4096 floats (tf32) per operand. */
#define GEMM_SIDE 4096

enum case_kind {
    COPY, SHARED_F32, SHARED_F64, SHARED_F128, TRANSPOSE_NAIVE, TRANSPOSE_SHARED, TRANSPOSE_PADDED, MMA_BF16,
    GEMM_BF16, GEMM_FP16, GEMM_TF32, LDMATRIX_UNPADDED, LDMATRIX_PADDED, LDMATRIX_SWIZZLED /* truth.h's order */
};

/* Measured by the source group, per instruction, rather than by a metric pass. */
#define CONFLICTS_EXACT "shared_conflicts_exact"
#define WARPS_PER_SHARED_BLOCK 8

struct expectation {
    const char *metric;
    double expected, lower, upper;
};

struct truth_case {
    enum case_kind kind;
    const char *kernel;
    char parameter[32];
    int stride, offset;
    int m, n, k; /* a GEMM's shape */
    int n_expect;
    struct expectation expect[MAX_EXPECT];
};

struct truth_buffers {
    int copy_threads;
    float *copy_in, *copy_out;
    float4 *shared_out;
    float *matrix_in, *matrix_out;
    float *mma_out;
    void *gemm_a, *gemm_b, *gemm_p;
};

/* A value to the unit: a relative slack of 1e-9, for the rounding of a counter's double. */
static struct expectation exactly(const char *metric, double value)
{
    double slack = 1e-9 * fmax(1.0, fabs(value));
    return (struct expectation){metric, value, value - slack, value + slack};
}

static void expect_exact(struct truth_case *c, const char *metric, double value)
{
    c->expect[c->n_expect++] = exactly(metric, value);
}

static void expect_range(struct truth_case *c, const char *metric, double value, double lower, double upper)
{
    c->expect[c->n_expect++] = (struct expectation){metric, value, lower, upper};
}

/*
 * The copy writes at least twice the L2, so its DRAM writes are the copy's own: an output that fits in the
 * L2 mostly stays there, and how much of it the L2 evicts during the kernel varies between runs and with
 * where the buffers lie (hundreds of KB of a 16.8 MB output, measured with ncu and memscope on an H100).
 */
static int copy_threads_beyond_l2(size_t l2_bytes)
{
    int n = MIN_COPY_THREADS;
    while ((size_t)n * sizeof(float) < 2 * l2_bytes)
        n *= 2;
    return n;
}

static struct truth_case copy_case(int threads, int stride, int offset)
{
    struct truth_case c = {COPY, "strided_copy", "", stride, offset, 0, 0, 0, 0, {{0}}};
    snprintf(c.parameter, sizeof c.parameter, "stride=%d offset=%d", stride, offset);
    expect_exact(&c, DERIVED(SECTORS_PER_REQUEST_LD), model_copy_sectors_per_request(threads, stride, offset));
    expect_exact(&c, DERIVED(GLOBAL_LOAD_EFFICIENCY), model_copy_load_efficiency(threads, stride, offset));
    return c;
}

/*
 * A warp's access needs at least one wavefront per 128 bytes when its lanes read distinct words, and every
 * wavefront beyond that is a bank conflict; a broadcast (stride 0) has none. How many wavefronts a broadcast
 * of a 64- or 128-bit word takes is the hardware's choice (1 and 2 on an H100), so only its conflicts are
 * checked. with_source: the source group runs, which measures the conflicts instruction by instruction.
 */
static struct truth_case shared_case(int stride, int elem_bytes, bool with_source)
{
    static const char *const kernels[] = {"shared_stride_32bit", "shared_stride_64bit", "shared_stride_128bit"};
    int width_index = elem_bytes == 4 ? 0 : elem_bytes == 8 ? 1 : 2;
    struct truth_case c = {SHARED_F32 + width_index, kernels[width_index], "", stride, 0, 0, 0, 0, 0, {{0}}};
    int wavefronts = model_shared_wavefronts(stride, elem_bytes), ideal = elem_bytes / 4;
    snprintf(c.parameter, sizeof c.parameter, "stride=%d", stride);
    if (stride > 0 || elem_bytes == 4)
        expect_exact(&c, DERIVED(SHARED_LD_WAVEFRONTS_PER_INST), wavefronts);
    expect_exact(&c, DERIVED(SHARED_ST_WAVEFRONTS_PER_INST), model_shared_wavefronts(1, elem_bytes));
    if (with_source)
        expect_exact(&c, CONFLICTS_EXACT,
                     stride == 0 ? 0.0
                                 : (double)SHARED_BLOCKS * WARPS_PER_SHARED_BLOCK * TRUTH_SHARED_READS *
                                       (wavefronts - ideal));
    return c;
}

/*
 * DRAM, for the tiled transposes (whole-sector writes): every byte of the input
 * is read once, within 2 %; writes may still sit dirty in the L2 when the
 * kernel ends, so up to one L2 of them can be missing. The naive transpose
 * writes 4 bytes of each 32-byte sector per request, and sectors the L2 evicts
 * half-written cost extra DRAM traffic (about 5 % measured on an H200): only
 * the lower bounds are a law there.
 */
static struct truth_case transpose_case(enum case_kind kind, const char *kernel, size_t l2_bytes)
{
    struct truth_case c = {kind, kernel, "", 0, 0, 0, 0, 0, 0, {{0}}};
    double bytes = (double)TRANSPOSE_WIDTH * TRANSPOSE_WIDTH * sizeof(float);
    double upper = kind == TRANSPOSE_NAIVE ? INFINITY : bytes * 1.02;
    snprintf(c.parameter, sizeof c.parameter, "width=%d", TRANSPOSE_WIDTH);
    expect_range(&c, COLLECTED(DRAM_BYTES_READ), bytes, bytes * 0.98, upper);
    expect_range(&c, COLLECTED(DRAM_BYTES_WRITE), bytes, bytes - (double)l2_bytes, upper);
    expect_exact(&c, DERIVED(SECTORS_PER_REQUEST_LD), 4.0);
    expect_exact(&c, DERIVED(SECTORS_PER_REQUEST_ST), kind == TRANSPOSE_NAIVE ? 32.0 : 4.0);
    if (kind != TRANSPOSE_NAIVE)
        expect_exact(&c, DERIVED(SHARED_LD_WAVEFRONTS_PER_INST), kind == TRANSPOSE_SHARED ? 32.0 : 1.0);
    return c;
}

/* Each mma.sync.m16n8k16 is one HMMA instruction (sm_90 SASS: HMMA.16816.F32.BF16) of 4096 bf16 operations. */
static struct truth_case mma_case(void)
{
    struct truth_case c = {MMA_BF16, "mma_sync_bf16", "", 0, 0, 0, 0, 0, 0, {{0}}};
    double ops = model_mma_m16n8k16_ops(MMA_BLOCKS * MMA_WARPS, MMA_REPETITIONS);
    snprintf(c.parameter, sizeof c.parameter, "%dx%d warps x%d", MMA_BLOCKS, MMA_WARPS, MMA_REPETITIONS);
    expect_exact(&c, COLLECTED(TENSOR_OPS_BF16), ops);
    expect_exact(&c, COLLECTED(TENSOR_OPS_HMMA_BF16), ops);
    expect_exact(&c, COLLECTED(TENSOR_INST_HMMA), (double)MMA_BLOCKS * MMA_WARPS * MMA_REPETITIONS);
    expect_exact(&c, DERIVED(FLOP_TENSOR), ops);
    return c;
}

/*
 * A cuBLAS GEMM's tensor operations of its type: 2 x M x N x K where the kernel's tiles divide the shape, else the
 * tile-padded work. The tiles are cuBLAS's choice, not ours: once the GEMM ran, the expectation takes the tile from
 * the name of the kernel cuBLAS chose (expect_kernel_tile). Before that, and for a kernel whose name gives no tile,
 * it holds the tiles of the kernels cuBLASLt chose on an H100 with CUDA 13.0 (field notes, "Tensor cores on GH100"):
 * at 1000x3000x520 bf16 and fp16 128 x 200 tiles stepping k by 64, tf32 M and N to 128 and k by 32.
 */
static const enum collected_metric gemm_counters[] = {METRIC_TENSOR_OPS_BF16, METRIC_TENSOR_OPS_FP16,
                                                      METRIC_TENSOR_OPS_TF32};

static struct truth_case gemm_case(enum case_kind kind, int m, int n, int k, int tile_m, int tile_n, int tile_k)
{
    static const char *const kernels[] = {"cublas_gemm_bf16", "cublas_gemm_fp16", "cublas_gemm_tf32"};
    struct truth_case c = {kind, kernels[kind - GEMM_BF16], "", 0, 0, m, n, k, 0, {{0}}};
    snprintf(c.parameter, sizeof c.parameter, "%dx%dx%d", m, n, k);
    expect_exact(&c, collected_metric_name(gemm_counters[kind - GEMM_BF16]),
                 model_gemm_tensor_ops(m, n, k, tile_m, tile_n, tile_k));
    return c;
}

static bool is_gemm(const struct truth_case *c)
{
    return c->kind == GEMM_BF16 || c->kind == GEMM_FP16 || c->kind == GEMM_TF32;
}

/* A GEMM that ran: its tensor operations padded to the tile of the kernel cuBLAS chose, where the kernel's name
 * gives the tile (model_cublas_tile); else the expectation stays. */
static void expect_kernel_tile(struct truth_case *c, const struct profile *p)
{
    int tile_m, tile_n, tile_k;
    if (!is_gemm(c) || p->n_kernels == 0 ||
        !model_cublas_tile(p->kernels[profile_main_kernel(p)].kernel, &tile_m, &tile_n, &tile_k))
        return;
    const char *counter = collected_metric_name(gemm_counters[c->kind - GEMM_BF16]);
    double ops = model_gemm_tensor_ops(c->m, c->n, c->k, tile_m, tile_n, tile_k);
    for (int i = 0; i < c->n_expect; ++i)
        if (strcmp(c->expect[i].metric, counter) == 0)
            c->expect[i] = exactly(counter, ops);
}

/* The tensor ladder's swizzle lesson (docs/tensor-ladder.md): ldmatrix.x4 over a tile of 128-byte rows conflicts
 * 8 ways, 32 wavefronts an instruction; padded rows or swizzled chunks take the ideal 4. The mma kernel's warps. */
static struct truth_case ldmatrix_case(enum case_kind kind)
{
    static const char *const layouts[] = {"pitch=128", "pitch=144", "pitch=128 swizzled"};
    static const int pitches[] = {128, 144, 128};
    const int layout = kind - LDMATRIX_UNPADDED;
    struct truth_case c = {kind, "ldmatrix_x4", "", 0, 0, 0, 0, 0, 0, {{0}}};
    double instructions = (double)MMA_BLOCKS * MMA_WARPS * MMA_REPETITIONS;
    int wavefronts = model_ldmatrix_x4_wavefronts(pitches[layout], kind == LDMATRIX_SWIZZLED);
    snprintf(c.parameter, sizeof c.parameter, "%s", layouts[layout]);
    expect_exact(&c, COLLECTED(LDSM_INSTRUCTIONS), instructions);
    expect_exact(&c, COLLECTED(LDSM_WAVEFRONTS), instructions * wavefronts);
    expect_exact(&c, DERIVED(LDSM_WAVEFRONTS_PER_INST), wavefronts);
    expect_exact(&c, DERIVED(SHARED_EXCESS_ESTIMATE_LD), instructions * (wavefronts - 4));
    return c;
}

static int build_tensor_cases(struct truth_case *cases, int n)
{
    static const enum case_kind gemms[] = {GEMM_BF16, GEMM_FP16, GEMM_TF32};
    cases[n++] = mma_case();
    for (size_t i = 0; i < sizeof gemms / sizeof *gemms; ++i)
        cases[n++] = gemm_case(gemms[i], GEMM_SIDE, GEMM_SIDE, GEMM_SIDE, 1, 1, 1);
    cases[n++] = gemm_case(GEMM_BF16, 1000, 3000, 520, 128, 200, 64);
    cases[n++] = gemm_case(GEMM_FP16, 1000, 3000, 520, 128, 200, 64);
    cases[n++] = gemm_case(GEMM_TF32, 1000, 3000, 520, 128, 128, 32);
    for (int kind = LDMATRIX_UNPADDED; kind <= LDMATRIX_SWIZZLED; ++kind)
        cases[n++] = ldmatrix_case((enum case_kind)kind);
    return n;
}

static int build_cases(struct truth_case *cases, int copy_threads, size_t l2_bytes, bool with_source)
{
    static const int strides[] = {1, 2, 4, 8, 16, 32};
    static const int offsets[] = {1, 2, 4, 7, 8, 16, 31, 32};
    static const int shared_strides[] = {0, 1, 2, 3, 4, 8, 16, 32};
    static const int shared64_strides[] = {0, 1, 2, 4, 8, 16};
    static const int shared128_strides[] = {0, 1, 2, 4, 8};
    int n = 0;
    for (size_t i = 0; i < sizeof strides / sizeof *strides; ++i)
        cases[n++] = copy_case(copy_threads, strides[i], 0);
    for (size_t i = 0; i < sizeof offsets / sizeof *offsets; ++i)
        cases[n++] = copy_case(copy_threads, 1, offsets[i]);
    for (size_t i = 0; i < sizeof shared_strides / sizeof *shared_strides; ++i)
        cases[n++] = shared_case(shared_strides[i], 4, with_source);
    for (size_t i = 0; i < sizeof shared64_strides / sizeof *shared64_strides; ++i)
        cases[n++] = shared_case(shared64_strides[i], 8, with_source);
    for (size_t i = 0; i < sizeof shared128_strides / sizeof *shared128_strides; ++i)
        cases[n++] = shared_case(shared128_strides[i], 16, with_source);
    cases[n++] = transpose_case(TRANSPOSE_NAIVE, "transpose_naive", l2_bytes);
    cases[n++] = transpose_case(TRANSPOSE_SHARED, "transpose_shared", l2_bytes);
    cases[n++] = transpose_case(TRANSPOSE_PADDED, "transpose_shared_padded", l2_bytes);
    return build_tensor_cases(cases, n);
}

struct launch_context {
    const struct truth_case *c;
    const struct truth_buffers *b;
    cudaStream_t stream;
    cublasHandle_t cublas;
};

static const char *launch_case(const struct launch_context *x)
{
    const struct truth_case *c = x->c;
    const struct truth_buffers *b = x->b;
    switch (c->kind) {
    case COPY:
        return truth_strided_copy(b->copy_in, b->copy_out, b->copy_threads, c->stride, c->offset, x->stream);
    case SHARED_F32:
        return truth_shared_stride_f32((float *)b->shared_out, c->stride, SHARED_BLOCKS, x->stream);
    case SHARED_F64:
        return truth_shared_stride_f64((double *)b->shared_out, c->stride, SHARED_BLOCKS, x->stream);
    case SHARED_F128:
        return truth_shared_stride_f128(b->shared_out, c->stride, SHARED_BLOCKS, x->stream);
    case TRANSPOSE_NAIVE:
        return truth_transpose_naive(b->matrix_in, b->matrix_out, TRANSPOSE_WIDTH, x->stream);
    case TRANSPOSE_SHARED:
    case TRANSPOSE_PADDED:
        return truth_transpose_shared(b->matrix_in, b->matrix_out, TRANSPOSE_WIDTH, c->kind == TRANSPOSE_PADDED,
                                      x->stream);
    case MMA_BF16:
        return truth_mma_bf16(b->mma_out, MMA_BLOCKS, MMA_WARPS, MMA_REPETITIONS, x->stream);
    case GEMM_BF16:
    case GEMM_FP16:
    case GEMM_TF32:
        return truth_cublas_gemm(x->cublas, (enum truth_tensor_type)(c->kind - GEMM_BF16), c->m, c->n, c->k,
                                 b->gemm_a, b->gemm_b, b->gemm_p);
    case LDMATRIX_UNPADDED:
    case LDMATRIX_PADDED:
    case LDMATRIX_SWIZZLED:
        return truth_ldmatrix(b->mma_out, (enum truth_ldmatrix_layout)(c->kind - LDMATRIX_UNPADDED), MMA_BLOCKS,
                              MMA_WARPS, MMA_REPETITIONS, x->stream);
    }
    return "unknown ground-truth case";
}

static int launch_and_wait(void *context, struct error *e)
{
    const struct launch_context *x = context;
    const char *why = launch_case(x);
    if (why)
        return error_set(e, EXIT_RUNTIME, "launching %s %s: %s", x->c->kernel, x->c->parameter, why);
    CUDA_TRY(e, cudaStreamSynchronize(x->stream));
    return 0;
}

static int allocate(const struct gpu *g, struct truth_buffers *b, struct error *e)
{
    b->copy_threads = copy_threads_beyond_l2((size_t)g->prop.l2CacheSize);
    size_t copy_in = ((size_t)b->copy_threads * MAX_STRIDE + MAX_OFFSET) * sizeof(float);
    size_t copy_out = (size_t)b->copy_threads * sizeof(float);
    size_t shared_out = SHARED_BLOCKS * 256 * sizeof(float4);
    size_t matrix = (size_t)TRANSPOSE_WIDTH * TRANSPOSE_WIDTH * sizeof(float);
    size_t mma_out = (size_t)MMA_BLOCKS * MMA_WARPS * 32 * sizeof(float);
    size_t gemm = (size_t)GEMM_SIDE * GEMM_SIDE * sizeof(float); /* the widest type, tf32 in floats */
    if (gpu_require_free_memory(g, copy_in + copy_out + shared_out + 2 * matrix + mma_out + 3 * gemm,
                                "the ground-truth kernels", e))
        return e->code;
    CUDA_TRY(e, cudaMalloc((void **)&b->copy_in, copy_in));
    CUDA_TRY(e, cudaMalloc((void **)&b->copy_out, copy_out));
    CUDA_TRY(e, cudaMalloc((void **)&b->shared_out, shared_out));
    CUDA_TRY(e, cudaMalloc((void **)&b->matrix_in, matrix));
    CUDA_TRY(e, cudaMalloc((void **)&b->matrix_out, matrix));
    CUDA_TRY(e, cudaMalloc((void **)&b->mma_out, mma_out));
    CUDA_TRY(e, cudaMalloc(&b->gemm_a, gemm));
    CUDA_TRY(e, cudaMalloc(&b->gemm_b, gemm));
    CUDA_TRY(e, cudaMalloc(&b->gemm_p, gemm));
    /* Defined inputs, so memory checkers stay quiet; zeroed on the work stream, and finished, before any
     * kernel is measured. */
    CUDA_TRY(e, cudaMemsetAsync(b->copy_in, 0, copy_in, g->stream));
    CUDA_TRY(e, cudaMemsetAsync(b->matrix_in, 0, matrix, g->stream));
    CUDA_TRY(e, cudaMemsetAsync(b->gemm_a, 0, gemm, g->stream));
    CUDA_TRY(e, cudaMemsetAsync(b->gemm_b, 0, gemm, g->stream));
    CUDA_TRY(e, cudaStreamSynchronize(g->stream));
    return 0;
}

static void release(struct truth_buffers *b, struct error *e)
{
    void *all[] = {b->copy_in, b->copy_out, b->shared_out, b->matrix_in, b->matrix_out,
                   b->mma_out, b->gemm_a, b->gemm_b, b->gemm_p};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        if (all[i])
            CUDA_RELEASE(e, cudaFree(all[i]));
}

/* What one case measured: its metric passes, and with the source group, its conflicts instruction by instruction. */
struct measured {
    struct profile profile;
    double conflicts_exact;
};

static double measured_value(const struct measured *m, const char *metric)
{
    const struct profile *p = &m->profile;
    struct derived_metric derived[MAX_DERIVED];
    if (strcmp(metric, CONFLICTS_EXACT) == 0)
        return m->conflicts_exact;
    const double *values = p->kernels[profile_main_kernel(p)].values;
    int n = metrics_derive(p->names, values, p->n_metrics, derived);
    for (int i = 0; i < n; ++i)
        if (strcmp(derived[i].name, metric) == 0)
            return derived[i].value;
    return metric_lookup(p->names, values, p->n_metrics, metric);
}

/* One check: a line on stdout and a row of validate.csv (an expected value of NAN is left empty: no figure). */
static void write_check(struct csv *out, const char *kernel, const char *parameter, const struct expectation *x,
                        double measured, bool pass, int *checks, int *failures)
{
    char expected[32] = "-";
    if (!isnan(x->expected))
        snprintf(expected, sizeof expected, "%.6g", x->expected);
    ++*checks;
    *failures += !pass;
    printf("%-24s %-22s %-30s expected %-12s measured %-12.6g %s\n", kernel, parameter, x->metric, expected, measured,
           pass ? "pass" : "FAIL");
    validate_csv_row(out, &(struct validate_row){kernel, parameter, x->metric, x->expected, x->lower, x->upper,
                                                 measured, pass, "", "", NAN, NAN});
}

static void report(struct csv *out, const struct truth_case *c, const struct measured *p, int *checks,
                   int *failures)
{
    for (int i = 0; i < c->n_expect; ++i) {
        const struct expectation *x = &c->expect[i];
        double measured = measured_value(p, x->metric);
        write_check(out, c->kernel, c->parameter, x, measured, measured >= x->lower && measured <= x->upper, checks,
                    failures);
    }
}

/* The ceilings measured before the ground truth, each against its datasheet figure (the L2 by order: NVIDIA
 * publishes no L2 bandwidth), as harness/ceilings/rates.c judges them. */
static void report_ceilings(struct csv *out, const struct environment *env, int *checks, int *failures)
{
    struct ceiling_rates measured, datasheet;
    struct ceiling_check judged[CEILING_COUNT];
    ceilings_from_environment(env, &measured, &datasheet);
    ceiling_judge(&measured, &datasheet, judged);
    for (int c = 0; c < CEILING_COUNT; ++c) {
        const struct ceiling_check *k = &judged[c];
        struct expectation x = {ceiling_key(k->ceiling), k->expected, k->lower, k->upper};
        write_check(out, "ceilings", k->rule, &x, k->measured, k->pass, checks, failures);
    }
}

/* Each kernel starts from an emptied L2, as in the metric passes, so that a profiler run with its own cache
 * control off (ncu --cache-control none) sees what memscope measures. */
static int launch_only(struct gpu *g, const struct truth_case *c, const struct truth_buffers *b, const char *name,
                       struct error *e)
{
    struct launch_context x = {c, b, g->stream, g->cublas};
    nvtx_job_begin(name, PRODUCT_SHAPE_NONE);
    int rc = gpu_flush_l2(g, e) ? e->code : launch_and_wait(&x, e);
    nvtx_end();
    return rc;
}

/* metrics.csv's precision of a case: the type its arithmetic or its data is in. */
static const char *case_precision(const struct truth_case *c)
{
    switch (c->kind) {
    case SHARED_F64:
        return "fp64";
    case MMA_BF16:
    case GEMM_BF16:
    case LDMATRIX_UNPADDED:
    case LDMATRIX_PADDED:
    case LDMATRIX_SWIZZLED:
        return "bf16";
    case GEMM_FP16:
        return "fp16";
    case GEMM_TF32:
        return "tf32";
    default:
        return "fp32";
    }
}

static bool is_shared(const struct truth_case *c)
{
    return c->kind == SHARED_F32 || c->kind == SHARED_F64 || c->kind == SHARED_F128;
}

/* The sum of every instruction's excess wavefronts over the case's kernels; the capture is kept beside the
 * metric passes'. */
static int count_conflicts(struct gpu *g, struct source_collector *s, const struct profiled_call *call,
                           const char *path, double *conflicts, struct error *e)
{
    double totals[LINE_METRIC_COUNT];
    *conflicts = 0.0;
    if (case_source(g, s, call, path, totals, NULL, e) == 0)
        *conflicts = totals[LINE_SHARED_EXCESS_WAVEFRONTS];
    return e->code;
}

/* A case's name in the captures, the trace and metrics.csv: its kernel and its parameter. */
#define CASE_NAME_LEN 96
static const char *case_name(const struct truth_case *c, char name[CASE_NAME_LEN])
{
    snprintf(name, CASE_NAME_LEN, "%s[%s]", c->kernel, c->parameter);
    return name;
}

/* Every case's metric passes in one batch, each case's kernels once a pass from an emptied L2, as a run profiles a
 * size's variants (profiled one at a time, the cases paid the passes' fixed cost once each: 0.37 s a case on an
 * H200, docs/report.md); then the shared cases' source counters, one case at a time. */
static int profile_cases(struct gpu *g, struct metrics_collector *m, struct source_collector *s,
                         const struct truth_case *cases, int n, const struct truth_buffers *b, const char *capture_dir,
                         struct measured *out, struct error *e)
{
    static struct launch_context contexts[VALIDATE_MAX_CASES];
    static struct profiled_call calls[VALIDATE_MAX_CASES];
    static char names[VALIDATE_MAX_CASES][CASE_NAME_LEN];
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    for (int i = 0; i < n; ++i) {
        case_name(&cases[i], names[i]);
        const char *precision = case_precision(&cases[i]);
        struct launch_context *x = &contexts[i];
        *x = (struct launch_context){&cases[i], b, g->stream, g->cublas};
        calls[i] = (struct profiled_call){launch_and_wait, x, names[i], precision, PRODUCT_SHAPE_NONE, &out[i].profile};
        out[i].conflicts_exact = 0.0;
    }
    snprintf(path, sizeof path, "%s/01-truth.capture", capture_dir); /* named in the order taken: decode reads so */
    nvtx_phase_begin(PHASE_METRICS, 0);
    metrics_collect(m, g, calls, n, path, e);
    nvtx_end();
    for (int i = 0; i < n && !e->code; ++i) {
        if (!s || !is_shared(&cases[i]))
            continue;
        snprintf(path, sizeof path, "%s/%02d-%s.source", capture_dir, i + 1, cases[i].kernel);
        nvtx_job_begin(names[i], PRODUCT_SHAPE_NONE);
        count_conflicts(g, s, &calls[i], path, &out[i].conflicts_exact, e);
        nvtx_end();
    }
    return e->code;
}

int validate_launch_only(struct gpu *g, struct error *e)
{
    static struct truth_case cases[VALIDATE_MAX_CASES];
    struct truth_buffers b = {0};
    if (allocate(g, &b, e) == 0) {
        int n = build_cases(cases, b.copy_threads, (size_t)g->prop.l2CacheSize, false);
        nvtx_run_begin();
        for (int i = 0; i < n && !e->code; ++i) {
            char name[CASE_NAME_LEN];
            launch_only(g, &cases[i], &b, case_name(&cases[i], name), e);
        }
        nvtx_end();
    }
    release(&b, e);
    return e->code;
}

int validate_run(struct gpu *g, struct metrics_collector *m, struct source_collector *s, const char *dir,
                 const char *capture_dir, const struct environment *env, int *checks, int *failures,
                 struct error *e)
{
    static struct truth_case cases[VALIDATE_MAX_CASES];
    static struct measured measured[VALIDATE_MAX_CASES];
    struct truth_buffers b = {0};
    struct csv out, metrics;
    *checks = *failures = 0;
    if (!m)
        return error_set(e, EXIT_USAGE, "--validate needs a metric group besides source");
    if (allocate(g, &b, e) || validate_csv_create(&out, dir, e)) {
        release(&b, e);
        return e->code;
    }
    if (metrics_csv_create(&metrics, dir, e)) {
        csv_close(&out, e);
        release(&b, e);
        return e->code;
    }
    int n = build_cases(cases, b.copy_threads, (size_t)g->prop.l2CacheSize, s != NULL);
    nvtx_run_begin();
    if (profile_cases(g, m, s, cases, n, &b, capture_dir, measured, e) == 0)
        for (int i = 0; i < n; ++i) {
            char name[CASE_NAME_LEN];
            expect_kernel_tile(&cases[i], &measured[i].profile);
            report(&out, &cases[i], &measured[i], checks, failures);
            profile_write_rows(&metrics, case_name(&cases[i], name), case_precision(&cases[i]), PRODUCT_SHAPE_NONE,
                               &measured[i].profile);
        }
    if (!e->code)
        corpus_validate(g, m, s, dir, capture_dir, env, &out, &metrics, checks, failures, e);
    nvtx_end();
    if (!e->code)
        report_ceilings(&out, env, checks, failures);
    csv_close(&out, e);
    csv_close(&metrics, e);
    release(&b, e);
    return e->code;
}
