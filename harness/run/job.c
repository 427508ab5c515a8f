#include <stdlib.h>
#include <unistd.h>

#include "job.h"
#include "launch.h"
#include "../check/operands.h"
#include "../check/reference.h"
#include "../gpu/nvml_probe.h"
#include "../gpu/nvtx.h"

/* Host matrices are logical row-major doubles; staging and device buffers are in the variant's own form. count and
 * bytes are per operand (enum operand: M rows x inner, N inner x cols, P rows x cols); staging holds the largest. */
struct buffers {
    struct matmul_shape shape;
    size_t count[3], bytes[3];
    double *m, *n, *ref, *out;
    void *staging;
    void *dm, *dn, *dp;
};

size_t job_kept_bytes(const struct matmul_variant *v, struct matmul_shape shape)
{
    return operands_total(shape) * matmul_element_size(v->precision);
}

size_t job_device_bytes(const struct matmul_variant *v, struct matmul_shape shape)
{
    return job_kept_bytes(v, shape) + reference_device_bytes(shape);
}

static int allocate(struct buffers *b, const struct matmul_variant *v, struct matmul_shape shape, struct error *e)
{
    b->shape = shape;
    size_t largest = 0;
    for (int i = OPERAND_M; i <= OPERAND_P; ++i) {
        b->count[i] = operands_count(shape, (enum operand)i);
        b->bytes[i] = b->count[i] * matmul_element_size(v->precision);
        largest = b->bytes[i] > largest ? b->bytes[i] : largest;
    }
    b->m = malloc(b->count[OPERAND_M] * sizeof(double));
    b->n = malloc(b->count[OPERAND_N] * sizeof(double));
    b->ref = malloc(b->count[OPERAND_P] * sizeof(double));
    b->out = malloc(b->count[OPERAND_P] * sizeof(double));
    b->staging = malloc(largest);
    char label[PRODUCT_SHAPE_LEN];
    if (!b->m || !b->n || !b->ref || !b->out || !b->staging)
        return error_set(e, EXIT_RUNTIME, "out of host memory for %s", job_size_label(shape, label));
    CUDA_TRY(e, cudaMalloc(&b->dm, b->bytes[OPERAND_M]));
    CUDA_TRY(e, cudaMalloc(&b->dn, b->bytes[OPERAND_N]));
    CUDA_TRY(e, cudaMalloc(&b->dp, b->bytes[OPERAND_P]));
    return 0;
}

static void release(struct buffers *b, struct error *e)
{
    free(b->m);
    free(b->n);
    free(b->ref);
    free(b->out);
    free(b->staging);
    void *device[] = {b->dm, b->dn, b->dp};
    for (int i = 0; i < 3; ++i)
        if (device[i])
            CUDA_RELEASE(e, cudaFree(device[i]));
    *b = (struct buffers){0};
}

static int upload(struct gpu *g, const struct matmul_variant *v, struct buffers *b, const double *logical,
                  void *device, enum operand which, struct error *e)
{
    int rows, cols;
    operands_extents(b->shape, which, &rows, &cols);
    operands_pack(logical, b->staging, rows, cols, v->precision, operands_column_major(v->layout, which));
    CUDA_TRY(e, cudaMemcpyAsync(device, b->staging, b->bytes[which], cudaMemcpyHostToDevice, g->stream));
    CUDA_TRY(e, cudaStreamSynchronize(g->stream)); /* the staging buffer is reused next */
    return 0;
}

static int copy_in(struct gpu *g, const struct matmul_variant *v, uint64_t seed, struct buffers *b, struct error *e)
{
    operands_fill_random(b->m, b->count[OPERAND_M], seed, v->precision);
    operands_fill_random(b->n, b->count[OPERAND_N], seed ^ 0xA5A5A5A5A5A5A5A5ull, v->precision);
    if (upload(g, v, b, b->m, b->dm, OPERAND_M, e) || upload(g, v, b, b->n, b->dn, OPERAND_N, e))
        return e->code;
    return 0;
}

static int copy_out_and_check(struct gpu *g, const struct matmul_variant *v, struct buffers *b,
                              struct check_result *check, struct error *e)
{
    CUDA_TRY(e, cudaMemcpyAsync(b->staging, b->dp, b->bytes[OPERAND_P], cudaMemcpyDeviceToHost, g->stream));
    CUDA_TRY(e, cudaStreamSynchronize(g->stream));
    operands_unpack(b->staging, b->out, b->shape.rows, b->shape.cols, v->precision,
                    operands_column_major(v->layout, OPERAND_P));
    check_against_reference(b->out, b->ref, b->count[OPERAND_P], check_tolerance(v->precision), check);
    return 0;
}

static int verify(struct gpu *g, const struct matmul_variant *v, const struct matmul_operands *ops, struct buffers *b,
                  struct check_result *check, struct error *e)
{
    /* all-ones bytes are NaN in FP32 and FP64 */
    CUDA_TRY(e, cudaMemsetAsync(b->dp, 0xFF, b->bytes[OPERAND_P], g->stream));
    *check = (struct check_result){0};
    if (launch_or_refuse(v, ops, &check->refused, e))
        return e->code;
    if (check->refused) /* a result: recorded with its reason, neither timed nor counted as a failure */
        return 0;
    CUDA_TRY(e, cudaStreamSynchronize(g->stream));
    return copy_out_and_check(g, v, b, check, e);
}

static void phase_begin(struct progress *p, enum phase phase, struct matmul_shape shape)
{
    nvtx_phase_begin(phase, product_shape_width(job_key(shape)));
    progress_phase(p, phase_name(phase));
}

/* Allocate, copy in and verify: the part shared by a full job and a bare check. */
static int prepare_and_verify(struct gpu *g, const struct matmul_variant *v, struct matmul_shape shape, uint64_t seed,
                              struct progress *p, struct buffers *b, struct matmul_operands *ops,
                              struct check_result *check, struct error *e)
{
    phase_begin(p, PHASE_ALLOCATE, shape);
    int rc = allocate(b, v, shape, e);
    nvtx_end();
    if (rc)
        return rc;
    *ops = (struct matmul_operands){b->dm, b->dn, b->dp, shape, g->stream, g->cublas};
    phase_begin(p, PHASE_COPY_IN, shape);
    rc = copy_in(g, v, seed, b, e);
    nvtx_end();
    if (rc)
        return rc;
    phase_begin(p, PHASE_REFERENCE, shape);
    rc = reference_compute(g, b->m, b->n, b->ref, shape, e);
    nvtx_end();
    if (rc)
        return rc;
    phase_begin(p, PHASE_VERIFY, shape);
    rc = verify(g, v, ops, b, check, e);
    nvtx_end();
    return rc;
}

static int launch_kept(void *context, struct error *e)
{
    const struct job_result *r = context;
    if (launch_variant(r->variant, &r->kept, e))
        return e->code;
    CUDA_TRY(e, cudaStreamSynchronize(r->kept.stream));
    return 0;
}

void job_profiled_call(struct job_result *r, struct profiled_call *call)
{
    *call = (struct profiled_call){
        launch_kept, r, r->variant->name, matmul_precision_name(r->variant->precision), r->key, &r->profile};
}

/* The device operands move to the result, so that releasing the buffers leaves them alone. */
static void keep_operands(struct job_result *r, const struct matmul_operands *ops, struct buffers *b)
{
    r->kept = *ops;
    b->dm = b->dn = b->dp = NULL;
}

void job_release_kept(struct job_result *r, struct error *e)
{
    void *device[] = {(void *)r->kept.m, (void *)r->kept.n, r->kept.p};
    for (int i = 0; i < 3; ++i)
        if (device[i])
            CUDA_RELEASE(e, cudaFree(device[i]));
    r->kept = (struct matmul_operands){0};
}

static int time_and_recheck(struct gpu *g, const struct matmul_variant *v, const struct matmul_operands *ops,
                            const struct timing_policy *policy, struct progress *p, struct buffers *b,
                            struct job_result *r, struct error *e)
{
    r->timed_from_us = gpu_watch_now_us();
    phase_begin(p, PHASE_WARMUP, ops->shape);
    int rc = timing_warm_up(g, v, ops, policy->warmup, e);
    nvtx_end();
    if (rc)
        return rc;
    phase_begin(p, PHASE_TIMED_RUNS, ops->shape);
    rc = timing_sample(g, v, ops, policy, p, &r->timing, e);
    nvtx_end();
    if (rc)
        return rc;
    r->timed_until_us = gpu_watch_now_us();
    phase_begin(p, PHASE_COPY_OUT, ops->shape);
    rc = copy_out_and_check(g, v, b, &r->recheck, e);
    nvtx_end();
    return rc;
}

static void release_phase(struct progress *p, struct matmul_shape shape, struct buffers *b, struct error *e)
{
    phase_begin(p, PHASE_RELEASE, shape);
    release(b, e);
    nvtx_end();
}

static int read_facts(const struct gpu *g, const struct matmul_variant *v, struct matmul_shape shape,
                      struct kernel_facts *f, struct error *e)
{
    size_t dynamic_smem = 0;
    unsigned threads = v->block_x * v->block_y;
    *f = (struct kernel_facts){0};
    if (!v->kernel)
        return 0;
    const void *kernel = v->kernel(shape, &dynamic_smem, &threads);
    char label[PRODUCT_SHAPE_LEN];
    if (!kernel) /* a launcher that chooses its kernel by the shape asks the device, which can fail */
        return error_set(e, EXIT_RUNTIME, "%s at %s: the device could not be asked which kernel runs", v->name,
                         job_size_label(shape, label));
    return kernel_facts_read(g, kernel, (int)threads, dynamic_smem, f, e);
}

int job_run(const struct job_context *ctx, const struct matmul_variant *v, struct matmul_shape shape, uint64_t seed,
            struct job_result *r, struct error *e)
{
    *r = (struct job_result){
        .variant = v, .shape = shape, .key = job_key(shape), .seed = seed, .reference = reference_name(shape)};
    struct buffers b = {0};
    struct matmul_operands ops;
    if (read_facts(ctx->gpu, v, shape, &r->facts, e))
        return e->code;
    nvtx_job_begin(v->name, r->key); /* a range named by its variant and size */
    if (prepare_and_verify(ctx->gpu, v, shape, seed, ctx->progress, &b, &ops, &r->check, e) == 0 && r->check.passed &&
        time_and_recheck(ctx->gpu, v, &ops, ctx->policy, ctx->progress, &b, r, e) == 0) {
        r->passed = r->recheck.passed;
        if (r->passed && ctx->keep_operands)
            keep_operands(r, &ops, &b);
    }
    release_phase(ctx->progress, shape, &b, e);
    nvtx_end();
    return e->code;
}

bool job_disturbance_settled(const struct job_result *r)
{
    return r->timed_until_us == 0 || gpu_watch_now_us() >= r->timed_until_us + GPU_WATCH_SAMPLE_US;
}

void job_judge_disturbance(struct job_result *r)
{
    if (r->timed_until_us == 0) /* not timed: its check failed */
        return;
    unsigned long long settled = r->timed_until_us + GPU_WATCH_SAMPLE_US, now = gpu_watch_now_us();
    if (now < settled)
        usleep((useconds_t)(settled - now));
    gpu_watch_others_between(r->timed_from_us, settled, r->other_gpu_work, sizeof r->other_gpu_work);
}

int job_restore_operands(struct gpu *g, struct job_result *r, struct error *e)
{
    struct buffers b = {0};
    if (allocate(&b, r->variant, r->shape, e) == 0 && copy_in(g, r->variant, r->seed, &b, e) == 0)
        keep_operands(r, &(struct matmul_operands){b.dm, b.dn, b.dp, r->shape, g->stream, g->cublas}, &b);
    release(&b, e);
    return e->code;
}

int job_check(struct gpu *g, const struct matmul_variant *v, struct matmul_shape shape, uint64_t seed,
              struct check_result *check, struct error *e)
{
    struct buffers b = {0};
    struct matmul_operands ops;
    struct progress silent = {0};
    nvtx_job_begin(v->name, job_key(shape));
    prepare_and_verify(g, v, shape, seed, &silent, &b, &ops, check, e);
    release_phase(&silent, shape, &b, e);
    nvtx_end();
    return e->code;
}

void job_free(struct job_result *r)
{
    timing_free(&r->timing);
}
