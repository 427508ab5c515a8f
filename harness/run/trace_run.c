#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../cupti/activity.h"
#include "../../cupti/metric_host.h"
#include "../../kernels/cache_sweep.h"
#include "../gpu/nvtx.h"
#include "../profile/profile.h"
#include "../results/trace.h"
#include "summary_rows.h"
#include "trace_run.h"

static int tracing;

int trace_run_start(struct error *e)
{
    struct prof_error pe = {0};
    if (prof_activity_start(&pe))
        return error_from_profiler(e, &pe);
    tracing = 1;
    nvtx_record_ranges(prof_activity_now);
    return 0;
}

/* The job and the phase whose ranges hold t: a job's phases nest inside it; the metric passes sit in the run's
 * range beside the jobs, and the ceilings before it. */
static void place(const struct nvtx_range *ranges, size_t n, uint64_t t, struct trace_gpu_op *op)
{
    op->job = op->phase = "";
    for (size_t i = 0; i < n; ++i) {
        const struct nvtx_range *r = &ranges[i];
        if (t < r->start_ns || t >= r->end_ns || strcmp(r->name, NVTX_RUN_RANGE) == 0)
            continue;
        if (strcmp(r->name, r->job) == 0)
            op->job = r->job;
        else
            op->phase = r->name;
    }
}

static const char *role_name(const char *kernel)
{
    static const char *const sweep[] = CACHE_SWEEP_KERNEL_NAMES;
    for (size_t i = 0; i < sizeof sweep / sizeof sweep[0]; ++i)
        if (strncmp(kernel, sweep[i], strlen(sweep[i])) == 0)
            return "L2 flush";
    return NULL;
}

/* The variant's own launches: its phases that launch it, not the reference product or the L2 flush beside them. */
static int launches_the_variant(const struct trace_gpu_op *op)
{
    static const enum phase own[] = {PHASE_VERIFY, PHASE_WARMUP, PHASE_TIMED_RUNS};
    if (strcmp(op->category, "kernel") != 0 || role_name(op->name))
        return 0;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; ++i)
        if (strcmp(op->phase, phase_name(own[i])) == 0)
            return 1;
    return 0;
}

/* What the run measured of the job an op ran in, on the variant's own kernels only. */
static const struct trace_job_facts *facts_for(const struct trace_gpu_op *op, const struct trace_job_facts *facts,
                                               int count)
{
    for (int i = 0; launches_the_variant(op) && i < count; ++i)
        if (strcmp(facts[i].job, op->job) == 0)
            return &facts[i];
    return NULL;
}

static void name_op(const struct prof_gpu_op *in, char *name, size_t len)
{
    if (in->kind == PROF_OP_KERNEL) {
        prof_demangle(in->name, name, len);
        const char *role = role_name(name);
        if (role) /* the sweep's kernels say what they are for, beside what they are */
            snprintf(name + strlen(name), len - strlen(name), " (%s)", role);
    } else if (in->kind == PROF_OP_MEMCPY) {
        snprintf(name, len, "memcpy %s", prof_copy_kind_name(in->copy_kind));
    } else {
        snprintf(name, len, "memset");
    }
}

static void convert_op(const struct prof_gpu_op *in, char *name, const struct nvtx_range *ranges, size_t n_ranges,
                       struct trace_gpu_op *out)
{
    static const char *const categories[] = {[PROF_OP_KERNEL] = "kernel", [PROF_OP_MEMCPY] = "memcpy",
                                             [PROF_OP_MEMSET] = "memset"};
    name_op(in, name, PROF_OP_NAME_LEN);
    *out = (struct trace_gpu_op){categories[in->kind], name, "", "", in->start_ns, in->end_ns, in->device,
                                 in->stream, in->correlation, {in->grid[0], in->grid[1], in->grid[2]},
                                 {in->block[0], in->block[1], in->block[2]}, in->registers, in->static_shared,
                                 in->dynamic_shared, in->bytes, NULL};
    place(ranges, n_ranges, in->start_ns, out);
}

/* What the run measured of each job, for its kernels' slices. A kernel without a global load instruction (cp.async
 * kernels) has no load efficiency to show. */
static void job_facts(const struct job_result *r, const struct environment *env, char *job, size_t len,
                      struct diagnosis *d, struct trace_job_facts *out)
{
    struct derived_metric derived[MAX_DERIVED];
    char size[PRODUCT_SHAPE_LEN];
    snprintf(job, len, "%s %s", r->variant->name, product_shape_label(r->key, size));
    *out = (struct trace_job_facts){job, "", r->sampled ? r->stalls.top_reason : "",
                                    r->sourced ? r->source_totals[LINE_SHARED_EXCESS_WAVEFRONTS] : NAN, NAN};
    if (r->profiled) {
        job_diagnose(r, env, d);
        const struct profile *p = &r->profile;
        const double *values = p->kernels[profile_main_kernel(p)].values;
        metrics_derive(p->names, values, p->n_metrics, derived);
        out->limiter = d->limiter;
        if (metric_lookup(p->names, values, p->n_metrics, COLLECTED(GLOBAL_LD_REQUESTS)) > 0.0)
            out->global_load_efficiency_pct = derived[METRIC_GLOBAL_LOAD_EFFICIENCY].value;
    }
}

static void convert_ranges(const struct nvtx_range *in, size_t n, struct trace_range *out)
{
    for (size_t i = 0; i < n; ++i)
        out[i] = (struct trace_range){in[i].name, in[i].job, in[i].depth, in[i].width, in[i].start_ns, in[i].end_ns,
                                      TRACE_RUN_TRACK};
}

/* The run's range closes last and opens first: its start is the trace's time 0. */
static uint64_t origin(const struct nvtx_range *ranges, size_t n)
{
    uint64_t first = n ? ranges[0].start_ns : 0;
    for (size_t i = 0; i < n; ++i)
        if (ranges[i].start_ns < first)
            first = ranges[i].start_ns;
    return first;
}

struct trace_buffers {
    struct trace_range *ranges;
    struct trace_gpu_op *ops;
    char (*names)[PROF_OP_NAME_LEN];
    struct trace_job_facts *facts;
    char (*jobs)[128];
    struct diagnosis *diagnoses;
};

static void free_buffers(struct trace_buffers *b)
{
    free(b->ranges);
    free(b->ops);
    free(b->names);
    free(b->facts);
    free(b->jobs);
    free(b->diagnoses);
}

static int allocate(struct trace_buffers *b, size_t n_ranges, size_t n_ops, int count, struct error *e)
{
    *b = (struct trace_buffers){calloc(n_ranges + 1, sizeof *b->ranges), calloc(n_ops + 1, sizeof *b->ops),
                                calloc(n_ops + 1, sizeof *b->names), calloc((size_t)count + 1, sizeof *b->facts),
                                calloc((size_t)count + 1, sizeof *b->jobs),
                                calloc((size_t)count + 1, sizeof *b->diagnoses)};
    if (!b->ranges || !b->ops || !b->names || !b->facts || !b->jobs || !b->diagnoses)
        return error_set(e, EXIT_RUNTIME, "out of host memory for the trace");
    return 0;
}

int trace_run_write(const char *dir, const struct job_result *jobs, int count, struct environment *env,
                    struct error *e)
{
    struct prof_error pe = {0};
    struct trace_buffers b;
    size_t n_ranges, n_ops;
    int ranges_lost;
    if (prof_activity_stop(&pe))
        return error_from_profiler(e, &pe);
    const struct nvtx_range *ranges = nvtx_ranges(&n_ranges, &ranges_lost);
    const struct prof_gpu_op *ops = prof_activity_ops(&n_ops);
    if (allocate(&b, n_ranges, n_ops, count, e) == 0) {
        convert_ranges(ranges, n_ranges, b.ranges);
        for (int i = 0; i < count; ++i)
            job_facts(&jobs[i], env, b.jobs[i], sizeof b.jobs[i], &b.diagnoses[i], &b.facts[i]);
        for (size_t i = 0; i < n_ops; ++i) {
            convert_op(&ops[i], b.names[i], ranges, n_ranges, &b.ops[i]);
            b.ops[i].facts = facts_for(&b.ops[i], b.facts, count);
        }
        const char *gpu = env_value(env, "gpu_name"), *command = env_value(env, "command_line");
        struct trace_header h = {gpu ? gpu : "", command ? command : "",
                                 origin(ranges, n_ranges), prof_activity_dropped(), ranges_lost, "memscope (host)"};
        env_add(env, "trace_gpu_records", "%zu", n_ops);
        env_add(env, "trace_dropped_records", "%llu", (unsigned long long)prof_activity_dropped());
        trace_write(dir, &h, b.ranges, n_ranges, b.ops, n_ops, e);
    }
    free_buffers(&b);
    return e->code;
}

int trace_run_pause(struct error *e)
{
    struct prof_error pe = {0};
    if (tracing && prof_activity_pause(&pe))
        return error_from_profiler(e, &pe);
    return 0;
}

int trace_run_resume(struct error *e)
{
    struct prof_error pe = {0};
    if (tracing && prof_activity_resume(&pe))
        return error_from_profiler(e, &pe);
    return 0;
}

void trace_run_stop(void)
{
    struct prof_error pe = {0};
    if (tracing)
        prof_activity_stop(&pe); /* after a failed run: what it left is not written, and its error is the run's */
    tracing = 0;
    nvtx_record_ranges(NULL);
    nvtx_ranges_free();
    prof_activity_free();
}
