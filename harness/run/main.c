/* memscope: check, time, profile and record matrix-multiplication variants. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/paths.h"
#include "cli.h"
#include "../gpu/environment.h"
#include "job.h"
#include "launch.h"
#include "profile_size.h"
#include "../profile/metric_set.h"
#include "../profile/summed_counts.h"
#include "../../cupti/subscriber.h"
#include "../results/lines_csv.h"
#include "../results/stalls_csv.h"
#include "../results/metrics_csv.h"
#include "../profile/metric_rows.h"
#include "summary_rows.h"
#include "trace_run.h"
#include "../results/partial_folder.h"
#include "../gpu/nvml_probe.h"
#include "../gpu/nvtx.h"
#include "../validate/validate.h"
#include "../ceilings/measure.h"
#include "ceilings_only.h"

/* What profiles a run: NULL where its groups are off. */
struct collectors {
    bool subscribed;
    struct metrics_collector *metrics;
    struct source_collector *source;
    struct stall_collector *stalls;
};

/* A fresh input set for every variant x size, reproducible from the run's seed (recorded per row); a square's the
 * same as before products of other shapes were run. */
static uint64_t job_seed(unsigned long long base, const char *variant, struct matmul_shape shape)
{
    uint64_t h = 1469598103934665603ull ^ base;
    for (const char *c = variant; *c; ++c)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    h = (h ^ (uint64_t)shape.rows) * 1099511628211ull;
    if (matmul_is_square(shape))
        return h;
    h = (h ^ (uint64_t)shape.cols) * 1099511628211ull;
    return (h ^ (uint64_t)shape.inner) * 1099511628211ull;
}

_Static_assert(MAX_VARIANTS <= MAX_BATCH, "every variant of a size must fit in one batch of metric passes");

/* With o->keep_operands, every variant of a size keeps its operands until the size is done. */
static int check_memory(const struct gpu *g, const struct options *o, struct error *e)
{
    for (int s = 0; s < o->n_sizes; ++s) {
        const struct matmul_shape shape = o->sizes[s];
        size_t kept = 0;
        for (int v = 0; v < o->n_variants; ++v) {
            char purpose[160], label[PRODUCT_SHAPE_LEN];
            snprintf(purpose, sizeof purpose, "%s at %s%s", o->variants[v]->name, job_size_label(shape, label),
                     o->keep_operands && v > 0 ? ", with the operands of the variants before it" : "");
            if (gpu_require_free_memory(g, kept + job_device_bytes(o->variants[v], shape), purpose, e))
                return e->code;
            kept += o->keep_operands ? job_kept_bytes(o->variants[v], shape) : 0;
        }
    }
    return 0;
}

/* With the stalls group the sizes are profiled once all are sampled: the sampled jobs keep their operands meanwhile
 * if every size's fit beside each job's own needs, and have them made again otherwise (job_restore_operands). */
static int sampled_operands_fit(const struct options *o, bool *fit, struct error *e)
{
    size_t kept = 0, most = 0;
    for (int s = 0; s < o->n_sizes; ++s)
        for (int v = 0; v < o->n_variants; ++v) {
            size_t need = kept + job_device_bytes(o->variants[v], o->sizes[s]);
            most = need > most ? need : most;
            kept += job_kept_bytes(o->variants[v], o->sizes[s]);
        }
    return gpu_has_free_memory(most, fit, e);
}

static void record_profiler(struct environment *env, const struct collectors *c)
{
    const struct metrics_collector *m = c->metrics;
    env_add(env, "profiler_chip", "%s", m ? m->config.chip : c->source ? c->source->chip : "none");
    env_add(env, "metric_count", "%d", m ? metrics_count(m) : 0);
    env_add(env, "metric_passes", "%zu", m ? metrics_passes(m) : (size_t)0);
    env_add(env, "summed_counts", "%d", m ? m->n_summed : 0);
    env_add(env, "profiler_setup_ms", "%.1f", m ? m->setup_ms : 0.0);
    env_add(env, "source_group", "%s", c->source ? "on" : "off");
    env_add(env, "source_setup_ms", "%.1f", c->source ? c->source->setup_ms : 0.0);
    env_add(env, "stalls_group", "%s", c->stalls ? "on" : "off");
}

/* The range profiler; with the stalls group, opened only once every size is sampled (profile_size.h). */
static int open_metrics(struct gpu *g, const struct options *o, const struct metric_set *set, struct collectors *c,
                        struct error *e)
{
    static struct metrics_collector metrics;
    if (set->n == 0)
        return 0;
    c->metrics = &metrics; /* before opening, so that stop_collectors releases what a failed open leaves behind */
    return metrics_open(&metrics, g, set, o->validate ? VALIDATE_MAX_CASES : o->n_variants, e);
}

static int run_size(const struct options *o, struct job_context *ctx, int s, struct job_result *jobs, int *done,
                    struct error *e)
{
    int first = *done, judged = first;
    const struct matmul_shape shape = o->sizes[s];
    char label[PRODUCT_SHAPE_LEN];
    for (int v = 0; v < o->n_variants && !e->code; ++v) {
        const struct matmul_variant *variant = o->variants[v];
        progress_job(ctx->progress, *done + 1, variant->name, job_size_label(shape, label));
        uint64_t seed = job_seed(o->seed, variant->name, shape);
        if (job_run(ctx, variant, shape, seed, &jobs[*done], e) == 0)
            ++*done;
        else
            job_free(&jobs[*done]); /* not counted, so not freed with the others */
        /* the jobs whose NVML samples are in by now; a short job leaves the one before it for later, not waited */
        while (judged < *done && job_disturbance_settled(&jobs[judged]))
            job_judge_disturbance(&jobs[judged++]);
    }
    while (judged < *done) /* the period waited out once for the size, not once a job */
        job_judge_disturbance(&jobs[judged++]);
    if (ctx->stalls && !e->code)
        sample_stalls_size(ctx, jobs + first, *done - first, job_key(shape), e);
    else if ((ctx->metrics || ctx->source) && !e->code)
        profile_size(ctx, jobs + first, *done - first, job_key(shape), s + 1, e);
    for (int i = first; i < *done && !ctx->keep_sampled; ++i)
        job_release_kept(&jobs[i], e);
    return e->code;
}

static bool operands_released(const struct job_result *jobs, int count)
{
    for (int i = 0; i < count; ++i)
        if (jobs[i].passed && !jobs[i].kept.p)
            return true;
    return false;
}

/* With the stalls group, the sizes are profiled once all are sampled (profile_size.h), each passed job's
 * operands made again unless they were kept. */
static int profile_after_sampling(const struct options *o, struct job_context *ctx, struct job_result *jobs,
                                  int done, struct error *e)
{
    for (int s = 0, first = 0; s < o->n_sizes && !e->code; ++s) {
        const struct product_shape size = job_key(o->sizes[s]);
        int count = 0;
        while (first + count < done && product_shape_equal(jobs[first + count].key, size))
            ++count;
        if (operands_released(jobs + first, count)) {
            nvtx_phase_begin(PHASE_COPY_IN, product_shape_width(size)); /* the operands again, as the timing had them */
            for (int i = first; i < first + count && !e->code; ++i)
                if (jobs[i].passed && !jobs[i].kept.p)
                    job_restore_operands(ctx->gpu, &jobs[i], e);
            nvtx_end();
        }
        if (!e->code)
            profile_size(ctx, jobs + first, count, size, s + 1, e);
        for (int i = first; i < first + count; ++i)
            job_release_kept(&jobs[i], e);
        first += count;
    }
    return e->code;
}

/* PC sampling off for good, then the range profiler on (profile_size.h says why not both). */
static int switch_to_range_profiler(const struct options *o, const struct metric_set *set, struct collectors *c,
                                    struct job_context *ctx, struct error *e)
{
    if (stalls_close(ctx->stalls, e) || open_metrics(ctx->gpu, o, set, c, e))
        return e->code;
    ctx->metrics = c->metrics;
    return 0;
}

static int run_jobs(const struct options *o, const struct metric_set *set, struct collectors *c,
                    struct job_context *ctx, struct job_result *jobs, int *done, struct error *e)
{
    nvtx_run_begin();
    for (int s = 0; s < o->n_sizes && !e->code; ++s)
        run_size(o, ctx, s, jobs, done, e);
    if (ctx->stalls && (set->n > 0 || set->source) && !e->code && switch_to_range_profiler(o, set, c, ctx, e) == 0)
        profile_after_sampling(o, ctx, jobs, *done, e);
    for (int i = 0; i < *done; ++i) /* what a failure left kept */
        job_release_kept(&jobs[i], e);
    nvtx_end();
    progress_clear(ctx->progress);
    return e->code;
}

static int write_metrics(const char *dir, const struct job_result *jobs, int count, struct error *e)
{
    struct csv c;
    if (metrics_csv_create(&c, dir, e))
        return e->code;
    for (int i = 0; i < count; ++i)
        if (jobs[i].profiled)
            profile_write_rows(&c, jobs[i].variant->name, matmul_precision_name(jobs[i].variant->precision),
                               jobs[i].key, &jobs[i].profile);
    return csv_close(&c, e);
}

static int write_results(const struct results_dir *dir, const struct environment *env, const struct options *o,
                         const struct job_result *jobs, int count, bool profiled, struct error *e)
{
    if (env_write(env, dir->partial_path, e) ||
        run_write_summary(dir->partial_path, jobs, count, env, e) ||
        run_write_samples(dir->partial_path, jobs, count, e) ||
        run_write_variants(dir->partial_path, o->variants, o->n_variants, e) ||
        (profiled && (write_metrics(dir->partial_path, jobs, count, e) ||
                      run_write_findings(dir->partial_path, jobs, count, env, e))) ||
        results_dir_commit(dir, e))
        return e->code;
    return 0;
}

static int count_failures(const struct job_result *jobs, int count)
{
    int failed = 0;
    for (int i = 0; i < count; ++i)
        failed += !jobs[i].passed && !jobs[i].check.refused;
    return failed;
}

static int make_capture_dir(const struct results_dir *dir, char *path, size_t len, struct error *e)
{
    snprintf(path, len, "%s/captures", dir->partial_path);
    if (mkdir(path, 0777) != 0)
        return error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
    return 0;
}

/* The run's last readings, its trace, and every file of the folder, which then loses its .partial. */
static int finish(struct gpu *g, const struct options *o, const struct collectors *collectors,
                  const struct results_dir *dir, struct environment *env, const struct job_result *jobs, int done,
                  struct error *e)
{
    record_profiler(env, collectors);
    env_collect_clocks(env, g, "end");
    if ((o->trace && trace_run_write(dir->partial_path, jobs, done, env, e)) ||
        write_results(dir, env, o, jobs, done, collectors->metrics != NULL, e))
        return e->code;
    run_print_table(stdout, jobs, done);
    printf("results: %s\n", dir->final_path);
    if (o->trace)
        printf("trace: %s/trace.json\n", dir->final_path);
    return 0;
}

static int measure(struct gpu *g, const struct options *o, const struct metric_set *set,
                   struct collectors *collectors, const struct results_dir *dir, struct environment *env,
                   struct error *e)
{
    int total = o->n_sizes * o->n_variants, done = 0;
    char capture_dir[PATH_JOINED(PATH_IN_FOLDER_LEN)] = "";
    struct progress progress;
    struct csv lines, stalls;
    progress_init(&progress, total);
    struct job_context ctx = {g, &o->timing, &progress, collectors->metrics, collectors->source,
                              collectors->source ? &lines : NULL, collectors->stalls,
                              collectors->stalls ? &stalls : NULL, capture_dir, o->keep_operands, false};
    if (collectors->stalls && (set->n > 0 || set->source)) {
        if (sampled_operands_fit(o, &ctx.keep_sampled, e))
            return e->code;
        env_add(env, "sampled_operands", "%s", ctx.keep_sampled ? "kept" : "made again");
    }
    struct job_result *jobs = calloc((size_t)total, sizeof *jobs);
    if (!jobs)
        return error_set(e, EXIT_RUNTIME, "out of host memory");
    bool capturing = set->n > 0 || set->source;
    if ((!capturing || make_capture_dir(dir, capture_dir, sizeof capture_dir, e) == 0) &&
        (!collectors->source || lines_csv_create(&lines, dir->partial_path, e) == 0)) {
        if (!collectors->stalls || stalls_csv_create(&stalls, dir->partial_path, e) == 0) {
            run_jobs(o, set, collectors, &ctx, jobs, &done, e);
            if (collectors->stalls)
                csv_close(&stalls, e);
        }
        if (collectors->source)
            csv_close(&lines, e);
    }
    if (!e->code)
        finish(g, o, collectors, dir, env, jobs, done, e);
    int failed = count_failures(jobs, done);
    for (int i = 0; i < done; ++i)
        job_free(&jobs[i]);
    free(jobs);
    if (!e->code && failed)
        return error_set(e, EXIT_CHECK_FAILED, "%d of %d variant x size runs failed their correctness check", failed,
                         total);
    return e->code;
}

static int validate(struct gpu *g, struct collectors *collectors, const struct results_dir *dir,
                    struct environment *env, struct error *e)
{
    char capture_dir[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    int checks, failures;
    record_profiler(env, collectors);
    if (make_capture_dir(dir, capture_dir, sizeof capture_dir, e) ||
        validate_run(g, collectors->metrics, collectors->source, dir->partial_path, capture_dir, env, &checks,
                     &failures, e))
        return e->code;
    env_collect_clocks(env, g, "end");
    if (env_write(env, dir->partial_path, e) || results_dir_commit(dir, e))
        return e->code;
    printf("validate: %d of %d checks passed\nresults: %s\n", checks - failures, checks, dir->final_path);
    if (failures)
        return error_set(e, EXIT_CHECK_FAILED, "%d of %d ground-truth checks failed (see validate.csv)", failures,
                         checks);
    return 0;
}

/* CUPTI's subscriber first: it must see the kernels' modules load to map their instructions to lines. */
static int start_collectors(struct gpu *g, const struct options *o, const struct metric_set *set,
                            struct collectors *c, struct error *e)
{
    static struct source_collector source;
    static struct stall_collector stalls;
    struct prof_error pe = {0};
    if (set->n == 0 && !set->source && !set->stalls)
        return 0;
    if (prof_subscriber_start(1, &pe))
        return error_from_profiler(e, &pe);
    c->subscribed = true;
    if (set->stalls && (c->stalls = &stalls) && stalls_open(&stalls, g, e))
        return e->code;
    if (!set->stalls && open_metrics(g, o, set, c, e))
        return e->code;
    if (set->source && (c->source = &source))
        source_open(&source, g, e);
    return e->code;
}

static void stop_collectors(struct collectors *c, struct error *e)
{
    struct prof_error pe = {0};
    if (c->metrics)
        metrics_close(c->metrics, e);
    if (c->source)
        source_close(c->source, e);
    if (c->stalls)
        stalls_close(c->stalls, e);
    if (c->subscribed && prof_subscriber_stop(&pe))
        error_from_profiler(e, &pe);
    *c = (struct collectors){0};
}

/* Another memscope run on the GPU is waited for (harness/gpu/gpu_lock.h). */
static struct gpu_turn take_turns(const struct options *o, const struct environment *env)
{
    return (struct gpu_turn){o->wait_gpu_s, env_value(env, "command_line"), stderr};
}

static int start_gpu(struct gpu *g, const struct options *o, const struct metric_set *set, struct collectors *c,
                     struct environment *env, struct error *e)
{
    const struct gpu_turn turn = take_turns(o, env);
    /* The trace starts before the collectors: CUPTI refuses activity records once some of them are on. */
    if (gpu_open(g, o->device, &turn, e) || (!o->validate && check_memory(g, o, e)) || env_collect_gpu(env, g, e) ||
        (o->trace && trace_run_start(e)) || start_collectors(g, o, set, c, e))
        return e->code;
    return 0;
}

/* A busy GPU names who else is on it, when NVML can tell. */
static void name_other_processes(struct error *e)
{
    char others[256];
    size_t used = strlen(e->message);
    if (e->code != EXIT_BUSY)
        return;
    gpu_watch_list_others(others, sizeof others);
    if (others[0] && used + 1 < sizeof e->message)
        snprintf(e->message + used, sizeof e->message - used, " (other processes on this GPU: %s)", others);
}

static int run(int argc, char **argv, struct error *e)
{
    struct options o;
    struct results_dir dir;
    struct metric_set set;
    static struct environment env;
    struct collectors collectors = {0};
    struct gpu g = {0};
    if (cli_parse(argc, argv, &o, e))
        return e->code;
    if (o.help || o.list || o.list_metric_groups) {
        o.help ? cli_print_help(stdout) : o.list ? cli_print_variants(stdout) : metric_groups_print(stdout);
        return 0;
    }
    if (metric_set_build(o.metric_groups, o.metrics, &set, e) || results_dir_plan(&dir, o.out_dir, e))
        return e->code;
    /* Measured on an H100 with CUDA 13.0: CUPTI's SASS patching records nothing for kernels that ran before it was
     * enabled unless a range-profiler pass has run them since (cupti/sass_metrics.h), and the suite's kernels ran
     * in their checks and timing. */
    if (set.source && set.n == 0)
        return error_set(e, EXIT_USAGE, "--metric-groups: source needs another metric group beside it (source,global "
                                        "is the cheapest)");
    /* the source group's instructions give some of the metric passes' patched counts exactly (summed_counts.h);
     * --validate checks the metric passes' own against ground truth */
    if (!o.validate)
        summed_counts_leave_out(&set);
    /* the metric passes, the source group and the stall sampling profile the size's variants together */
    /* the ground-truth checks read no stall reason */
    if (o.validate && set.stalls && set.n == 0 && !set.source)
        return error_set(e, EXIT_USAGE, "--validate: the stalls group has no ground truth to check; name another group");
    set.stalls = set.stalls && !o.validate;
    o.keep_operands = o.keep_operands || set.n > 0 || set.source || set.stalls;
    env_collect_host(&env, argc, argv);
    env_add(&env, "warmup_launches", "%d", o.timing.warmup); /* a trace's kernels are the warm-up's and the samples' */
    prof_set_busy_wait(o.wait_gpu_s, stderr);
    if (o.measure_ceilings)
        return run_ceilings_only(&o, &dir, &env, e);
    if (o.validate && set.n == 0 && !set.source) { /* the ground-truth kernels alone, for an external profiler */
        const struct gpu_turn turn = take_turns(&o, &env);
        if (gpu_open(&g, o.device, &turn, e) == 0 && validate_launch_only(&g, e) == 0)
            printf("ground-truth kernels launched; nothing measured (--no-metrics)\n");
        gpu_close(&g, e);
        return e->code;
    }
    if (start_gpu(&g, &o, &set, &collectors, &env, e) == 0 && results_dir_create(&dir, e) == 0) {
        env_collect_clocks(&env, &g, "start");
        /* Once per run, before the variants: the roofline's roofs, and the ceilings --validate judges. */
        int rc = (o.validate || set.roofline) ? ceilings_measure(&g, &env, e) : 0;
        if (rc == 0)
            rc = o.validate ? validate(&g, &collectors, &dir, &env, e) : measure(&g, &o, &set, &collectors, &dir, &env, e);
        if (rc > EXIT_CHECK_FAILED)
            fprintf(stderr, "memscope: incomplete results left in %s\n", dir.partial_path);
    }
    name_other_processes(e);
    trace_run_stop();
    stop_collectors(&collectors, e);
    gpu_close(&g, e);
    return e->code;
}

int main(int argc, char **argv)
{
    struct error e = {0};
    int code = run(argc, argv, &e);
    if (code != EXIT_OK)
        fprintf(stderr, "memscope: %s\n", e.message);
    return code;
}
