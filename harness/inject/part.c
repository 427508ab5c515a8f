#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/args.h"
#include "../results/environment_csv.h"
#include "../results/job_name.h"
#include "../results/instructions_csv.h"
#include "../results/launches_csv.h"
#include "../results/lines_csv.h"
#include "../profile/metric_rows.h"
#include "../results/metrics_csv.h"
#include "../results/stalls_csv.h"
#include "../source/source_rows.h"
#include "../stalls/stall_rows.h"
#include "../results/trace.h"
#include "part.h"
#include "protocol.h"
#include "version.h"

/* What the part is made of: the records placed, the launches numbered and selected, the process's command line. */
struct part_writing {
    const struct inject_config *config;
    const struct part_records *records;
    struct prof_gpu_op *ops; /* the activity's records, then those of the launches profiled */
    size_t n_ops;
    struct placement placement;
    struct launches launches;
    char command[512];
};

/* The profile of a launch's record, or NULL when it was not profiled. */
static const struct replayed_launch *replayed(const struct part_writing *t, size_t op)
{
    return op >= t->records->n_ops ? &t->records->replayed[op - t->records->n_ops] : NULL;
}

/* A name too long for the readers (a deep NVTX path over a long template kernel) falls back to the ordinal. */
static void job_of(const struct part_writing *t, const struct launch *row, char *job, size_t len)
{
    if (job_name_format(job, len, t->placement.paths[t->placement.path[row->op]], t->launches.kernels[row->kernel],
                        row->kernel_ordinal) != 0)
        snprintf(job, len, "launch %ld", row->ordinal);
}

/* /proc/self/cmdline's arguments as one line (args_join). */
static void read_command_line(char *buf, size_t len)
{
    char raw[4096];
    const char *argv[256];
    int argc = 0;
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t n = f ? fread(raw, 1, sizeof raw - 1, f) : 0;
    if (f)
        fclose(f);
    raw[n] = '\0';
    for (size_t at = 0; at < n && argc < 255; at += strlen(raw + at) + 1)
        argv[argc++] = raw + at;
    argv[argc] = NULL;
    args_join(argv, buf, len);
}

/* Why a launch the selection took was not replayed (collectives.h), or NULL. */
static const char *kept_back(const struct part_writing *t, size_t op)
{
    for (size_t i = 0; op < t->records->n_ops && i < t->records->n_kept; ++i)
        if (t->records->kept[i].correlation == t->ops[op].correlation)
            return t->records->kept[i].reason;
    return NULL;
}

static int write_launches(const struct part_writing *t, struct error *e)
{
    const struct launches *l = &t->launches;
    struct csv c;
    char job[JOB_NAME_LEN];
    if (launches_csv_create(&c, t->config->part, e))
        return e->code;
    for (size_t i = 0; i < l->n; ++i) {
        const struct launch *row = &l->rows[i];
        const struct prof_gpu_op *op = &t->ops[row->op];
        job_of(t, row, job, sizeof job);
        launches_csv_row(&c, &(struct launch_row){
                                 row->ordinal, row->kernel_ordinal, l->kernels[row->kernel], op->name,
                                 t->placement.paths[t->placement.path[row->op]],
                                 {op->grid[0], op->grid[1], op->grid[2]}, {op->block[0], op->block[1], op->block[2]},
                                 op->dynamic_shared, op->static_shared, op->registers,
                                 op->end_ns > op->start_ns ? op->end_ns - op->start_ns : 0, row->selected, job,
                                 t->config->run, row->selected ? kept_back(t, row->op) : NULL, op->start_ns,
                                 op->graph});
    }
    return csv_close(&c, e);
}

/* Every profiled launch's metrics, keyed by its job; a launch CUPTI could not replay has none, and says why in
 * the environment. */
static int write_metrics(const struct part_writing *t, struct error *e)
{
    struct csv c;
    char job[JOB_NAME_LEN];
    if (t->config->metrics.n == 0)
        return 0;
    if (metrics_csv_create(&c, t->config->part, e))
        return e->code;
    for (size_t i = 0; i < t->launches.n; ++i) {
        const struct replayed_launch *r = replayed(t, t->launches.rows[i].op);
        if (!r || r->profile.n_metrics == 0)
            continue;
        job_of(t, &t->launches.rows[i], job, sizeof job);
        profile_write_kernel_rows(&c, job, PROGRAM_PRECISION, PRODUCT_SHAPE_NONE,
                                  t->launches.kernels[t->launches.rows[i].kernel], &r->profile, 0);
    }
    return csv_close(&c, e);
}

/* The samples of a launch's record, or NULL when it was not sampled. */
static const struct sampled_launch *sampled(const struct part_writing *t, size_t op)
{
    for (size_t i = 0; op < t->records->n_ops && i < t->records->n_sampled; ++i)
        if (t->records->sampled[i].correlation == t->ops[op].correlation)
            return &t->records->sampled[i];
    return NULL;
}

/* The stall sampling's rows, keyed by each sampled launch's job. */
static int write_stalls(const struct part_writing *t, struct error *e)
{
    struct csv c;
    if (!t->config->metrics.stalls)
        return 0;
    if (stalls_csv_create(&c, t->config->part, e))
        return e->code;
    for (size_t i = 0; i < t->launches.n; ++i) {
        const struct sampled_launch *s = sampled(t, t->launches.rows[i].op);
        if (!s || s->failure[0])
            continue;
        struct stall_call call = s->call;
        job_of(t, &t->launches.rows[i], call.variant, sizeof call.variant);
        snprintf(call.precision, sizeof call.precision, "%s", PROGRAM_PRECISION);
        call.shape = PRODUCT_SHAPE_NONE;
        stalls_write_rows(&c, &call, t->records->reasons);
    }
    return csv_close(&c, e);
}

/* The counts of a launch's record (made from its call: the activity was paused), or NULL when it was not patched. */
static const struct patched_launch *patched(const struct part_writing *t, size_t op)
{
    for (size_t i = 0; op >= t->records->n_ops && i < t->records->n_patched; ++i)
        if (t->records->patched[i].correlation == t->ops[op].correlation)
            return &t->records->patched[i];
    return NULL;
}

/* The source run's capture: a call per patched launch, named by its job, in launch order. */
static int gather_calls(const struct part_writing *t, struct source_capture *capture, struct error *e)
{
    *capture = *t->records->texts;
    capture->n_calls = 0;
    capture->calls = calloc(t->records->n_patched + 1, sizeof *capture->calls);
    if (!capture->calls)
        return error_set(e, EXIT_RUNTIME, "out of host memory for %zu patched launches", t->records->n_patched);
    for (size_t i = 0; i < t->launches.n; ++i) {
        const struct patched_launch *p = patched(t, t->launches.rows[i].op);
        if (!p || p->failure[0])
            continue;
        struct source_call *call = &capture->calls[capture->n_calls++];
        *call = p->call; /* its instructions stay the patching's */
        job_of(t, &t->launches.rows[i], call->variant, sizeof call->variant);
        snprintf(call->precision, sizeof call->precision, "%s", PROGRAM_PRECISION);
        call->shape = PRODUCT_SHAPE_NONE;
        snprintf(call->kernel, sizeof call->kernel, "%s", t->launches.kernels[t->launches.rows[i].kernel]);
    }
    return 0;
}

/* The source run's files: the capture (memscope-decode reads it offline), lines.csv and instructions.csv. */
static int write_source(const struct part_writing *t, struct error *e)
{
    struct source_capture capture;
    struct csv lines, instructions;
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    if (!t->config->metrics.source)
        return 0;
    snprintf(path, sizeof path, "%s/%s", t->config->part, INJECT_SOURCE_CAPTURE);
    if (gather_calls(t, &capture, e) == 0 && source_capture_write(path, &capture, e) == 0 &&
        lines_csv_create(&lines, t->config->part, e) == 0) {
        source_write_rows(&lines, &capture, e);
        if (csv_close(&lines, e) == 0 && instructions_csv_create(&instructions, t->config->part, e) == 0) {
            source_write_instruction_rows(&instructions, &capture, e);
            csv_close(&instructions, e);
        }
    }
    free(capture.calls); /* the rest is the patching's */
    return e->code;
}

static bool collected(const struct part_writing *t, size_t op)
{
    const struct metric_set *m = &t->config->metrics;
    return m->stalls ? sampled(t, op) != NULL : m->source ? patched(t, op) != NULL : replayed(t, op) != NULL;
}

/* With metrics or stalls, the launches selected are those profiled or sampled, and those kept back from replay: the
 * rule is the same, applied as the program ran. */
static void mark_profiled(struct part_writing *t)
{
    if (t->config->metrics.n == 0 && !t->config->metrics.stalls && !t->config->metrics.source)
        return;
    t->launches.n_selected = 0;
    for (size_t i = 0; i < t->launches.n; ++i) {
        struct launch *row = &t->launches.rows[i];
        row->selected = collected(t, row->op) || kept_back(t, row->op);
        t->launches.n_selected += (size_t)row->selected;
    }
}

/* Kernels a CUDA graph launched: the selection never sees them (replay.c), so they are timed only. */
static size_t graph_launches(const struct part_writing *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->launches.n; ++i)
        n += t->ops[t->launches.rows[i].op].graph != 0;
    return n;
}

static void describe_patching(const struct part_writing *t, struct environment *env)
{
    size_t failed = 0;
    for (size_t i = 0; i < t->records->n_patched; ++i)
        if (t->records->patched[i].failure[0] && failed++ == 0)
            env_add(env, "first_patching_failure", "%s", t->records->patched[i].failure);
    env_add(env, "patching_failures", "%zu", failed);
}

/* Selected launches kept back from replay for that reason (a not_replayed value, results/launches_csv.h). */
static size_t kept_for(const struct part_writing *t, const char *reason)
{
    size_t n = 0;
    for (size_t i = 0; i < t->records->n_kept; ++i)
        n += strcmp(t->records->kept[i].reason, reason) == 0;
    return n;
}

/* Selected collectives kept back from replay for what they are (NCCL's, --no-replay's). */
static size_t kept_as_collectives(const struct part_writing *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->records->n_kept; ++i)
        n += not_replayed_is_collective(t->records->kept[i].reason);
    return n;
}

static void describe_failures(const struct part_writing *t, struct environment *env)
{
    size_t failed = 0;
    for (size_t i = 0; i < t->records->n_replayed; ++i)
        if (t->records->replayed[i].failure[0] && failed++ == 0)
            env_add(env, "first_replay_failure", "%s", t->records->replayed[i].failure);
    env_add(env, "replay_failures", "%zu", failed);
    env_add(env, "kept_back_from_replay", "%zu", kept_as_collectives(t));
    env_add(env, "not_replayed_collective_running", "%zu", kept_for(t, NOT_REPLAYED_COLLECTIVE_RUNNING));
    env_add(env, "not_replayed_capturing", "%zu", kept_for(t, NOT_REPLAYED_CAPTURING));
    env_add(env, "replay_wait_ms", "%.0f", t->records->replay_wait_ms);
    env_add(env, "collective_launch_wait_ms", "%.0f", t->records->collective_launch_wait_ms);
    if (t->config->metrics.source)
        describe_patching(t, env);
    if (!t->config->metrics.stalls)
        return;
    size_t unsampled = 0;
    failed = 0;
    for (size_t i = 0; i < t->records->n_sampled; ++i) {
        const struct sampled_launch *s = &t->records->sampled[i];
        if (s->failure[0] && failed++ == 0)
            env_add(env, "first_sampling_failure", "%s", s->failure);
        unsampled += !s->failure[0] && s->call.n == 0;
    }
    env_add(env, "sampling_failures", "%zu", failed);
    env_add(env, "sampled_launches_without_samples", "%zu", unsampled);
}

static void describe_selection(const struct inject_config *c, struct environment *env)
{
    env_add(env, "selection_kernel", "%s", c->kernel_pattern ? c->kernel_pattern : "");
    env_add(env, "selection_nvtx_include", "%s", c->nvtx_include ? c->nvtx_include : "");
    env_add(env, "selection_launch_skip", "%ld", c->selection.skip);
    env_add(env, "selection_launch_count_per_kernel", "%ld", c->selection.per_kernel);
    env_add(env, "no_replay", "%s", c->no_replay_pattern ? c->no_replay_pattern : "");
    if (c->selection.count < 0)
        env_add(env, "selection_launch_count", "all");
    else
        env_add(env, "selection_launch_count", "%ld", c->selection.count);
}

static int write_environment(const struct part_writing *t, struct error *e)
{
    struct environment env = {0};
    char host[256] = "unknown", stamp[32];
    time_t now = time(NULL);
    gethostname(host, sizeof host - 1);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    env_add(&env, "profiler", "memscope-profile");
    env_add(&env, "kind", "%s", PROGRAM_KIND);
    env_add(&env, "git_commit", "%s", MEMSCOPE_GIT_COMMIT);
    env_add(&env, "git_dirty", "%s", MEMSCOPE_GIT_DIRTY);
    env_add(&env, "host", "%s", host);
    env_add(&env, "time_utc", "%s", stamp);
    env_add(&env, "command_line", "%s", t->command);
    env_add(&env, "pid", "%ld", (long)getpid());
    env_add(&env, "part", "%s", t->config->child ? "a process the program started" : "the program");
    char rank[32] = ""; /* empty where no launcher gave one */
    if (t->config->rank.variable)
        snprintf(rank, sizeof rank, "%ld", t->config->rank.rank);
    env_add(&env, "rank", "%s", rank);
    env_add(&env, "rank_variable", "%s", t->config->rank.variable ? t->config->rank.variable : "");
    env_add(&env, "gpu_uuids", "%s", replay_gpu_uuids());
    env_add(&env, "kernel_launches", "%zu", t->launches.n);
    env_add(&env, "selected_launches", "%zu", t->launches.n_selected);
    env_add(&env, "kernels", "%zu", t->launches.n_kernels);
    env_add(&env, "graph_launches", "%zu", graph_launches(t));
    env_add(&env, "gpu_records", "%zu", t->records->n_ops);
    env_add(&env, "dropped_records", "%llu", (unsigned long long)t->records->dropped);
    env_add(&env, "records_without_call", "%zu", t->placement.unplaced);
    env_add(&env, "nvtx_ranges", "%zu", t->records->n_ranges);
    env_add(&env, "nvtx_ranges_lost", "%zu", t->records->ranges_lost);
    describe_selection(t->config, &env);
    env_add(&env, "metric_groups", "%s", t->config->metric_groups);
    env_add(&env, "run", "%d", t->config->run);
    env_add(&env, "repeat", "%d", t->config->repeat);
    env_add(&env, "gpu_name", "%s", replay_gpu_name());
    env_add(&env, "chip", "%s", replay_chip());
    env_add(&env, "replay_passes", "%zu", replay_passes());
    env_add(&env, "clock_offset_ns", "%lld", (long long)t->records->clock_offset_ns);
    describe_failures(t, &env);
    return env_write(&env, t->config->part, e);
}

/* The trace's time 0: the first range or GPU record. */
static uint64_t origin(const struct part_records *r)
{
    uint64_t first = r->exit_ns;
    for (size_t i = 0; i < r->n_ranges; ++i)
        if (r->ranges[i].start_ns < first)
            first = r->ranges[i].start_ns;
    for (size_t i = 0; i < r->n_ops; ++i)
        if (r->ops[i].start_ns < first)
            first = r->ops[i].start_ns;
    for (size_t i = 0; i < r->n_replayed; ++i)
        if (r->replayed[i].op.start_ns < first)
            first = r->replayed[i].op.start_ns;
    return first;
}

static void convert_ranges(const struct part_records *r, struct trace_range *out)
{
    for (size_t i = 0; i < r->n_ranges; ++i) {
        const struct kept_range *k = &r->ranges[i];
        out[i] = (struct trace_range){k->name, "", k->depth, 0, k->start_ns, k->end_ns ? k->end_ns : r->exit_ns,
                                      k->thread};
    }
}

/* Each GPU record as the trace shows it: a kernel by its demangled name, its NVTX path as its phase. */
static void convert_ops(const struct part_writing *t, char (*labels)[32], struct trace_gpu_op *out)
{
    static const char *const categories[] = {[PROF_OP_KERNEL] = "kernel", [PROF_OP_MEMCPY] = "memcpy",
                                             [PROF_OP_MEMSET] = "memset"};
    const struct prof_gpu_op *ops = t->ops;
    for (size_t i = 0; i < t->n_ops; ++i) {
        const struct prof_gpu_op *in = &ops[i];
        if (in->kind == PROF_OP_MEMCPY)
            snprintf(labels[i], sizeof labels[i], "memcpy %s", prof_copy_kind_name(in->copy_kind));
        else
            snprintf(labels[i], sizeof labels[i], "%s", categories[in->kind]);
        out[i] = (struct trace_gpu_op){categories[in->kind], labels[i], "",
                                       t->placement.paths[t->placement.path[i]], in->start_ns, in->end_ns,
                                       in->device, in->stream, in->correlation,
                                       {in->grid[0], in->grid[1], in->grid[2]},
                                       {in->block[0], in->block[1], in->block[2]}, in->registers,
                                       in->static_shared, in->dynamic_shared, in->bytes, NULL};
    }
    for (size_t i = 0; i < t->launches.n; ++i)
        out[t->launches.rows[i].op].name = t->launches.kernels[t->launches.rows[i].kernel];
}

static int write_trace(const struct part_writing *t, struct error *e)
{
    const struct part_records *r = t->records;
    struct trace_range *ranges = calloc(r->n_ranges + 1, sizeof *ranges);
    struct trace_gpu_op *ops = calloc(t->n_ops + 1, sizeof *ops);
    char(*labels)[32] = calloc(t->n_ops + 1, sizeof *labels), host_name[64];
    if (ranges && ops && labels) {
        snprintf(host_name, sizeof host_name, "the program (pid %ld)", (long)getpid());
        struct trace_header h = {replay_gpu_name(), t->command, origin(r), r->dropped, (int)r->ranges_lost, host_name};
        convert_ranges(r, ranges);
        convert_ops(t, labels, ops);
        trace_write(t->config->part, &h, ranges, r->n_ranges, ops, t->n_ops, e);
    } else {
        error_set(e, EXIT_RUNTIME, "out of host memory for the trace of %zu GPU records", t->n_ops);
    }
    free(ranges);
    free(ops);
    free(labels);
    return e->code;
}

static int write_mark(const struct part_writing *t, struct error *e)
{
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    snprintf(path, sizeof path, "%s/%s", t->config->part, INJECT_COMPLETE_MARK);
    FILE *f = fopen(path, "w");
    if (!f)
        return error_set(e, EXIT_OUTPUT, "cannot create %s", path);
    fprintf(f, "launches %zu selected %zu timed_only %zu graph %zu capturing %zu\n", t->launches.n,
            t->launches.n_selected, kept_for(t, NOT_REPLAYED_COLLECTIVE_RUNNING), graph_launches(t),
            kept_for(t, NOT_REPLAYED_CAPTURING));
    if (fclose(f) != 0)
        return error_set(e, EXIT_OUTPUT, "cannot write %s", path);
    return 0;
}

/* The activity's records and, after them, the records made for the launches it paused for. */
static int gather_ops(struct part_writing *t, struct error *e)
{
    const struct part_records *r = t->records;
    t->n_ops = r->n_ops + r->n_replayed;
    t->ops = malloc((t->n_ops + 1) * sizeof *t->ops);
    if (!t->ops)
        return error_set(e, EXIT_RUNTIME, "out of host memory for %zu GPU records", t->n_ops);
    if (r->n_ops) /* none where every launch was collected with the activity paused */
        memcpy(t->ops, r->ops, r->n_ops * sizeof *t->ops);
    for (size_t i = 0; i < r->n_replayed; ++i)
        t->ops[r->n_ops + i] = r->replayed[i].op;
    return 0;
}

int part_write(const struct inject_config *c, const struct part_records *r, struct error *e)
{
    struct part_writing t = {.config = c, .records = r};
    read_command_line(t.command, sizeof t.command);
    if (gather_ops(&t, e) == 0 &&
        place_ops(t.ops, t.n_ops, r->calls, r->n_calls, r->ranges, r->n_ranges, &t.placement, e) == 0 &&
        launches_build(t.ops, t.n_ops, &t.placement, &c->selection, &t.launches, e) == 0) {
        mark_profiled(&t);
        if (write_launches(&t, e) == 0 && write_metrics(&t, e) == 0 && write_stalls(&t, e) == 0 &&
            write_source(&t, e) == 0 &&
            write_environment(&t, e) == 0 &&
            write_trace(&t, e) == 0)
            write_mark(&t, e);
    }
    launches_free(&t.launches);
    placement_free(&t.placement);
    free(t.ops);
    return e->code;
}
