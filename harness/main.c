/* memscope: check, time and record matrix-multiplication variants. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "environment.h"
#include "job.h"
#include "results.h"
#include "results_dir.h"
#include "trace.h"

/* A fresh input set for every variant x size, reproducible from the run's seed (recorded per row). */
static uint64_t job_seed(unsigned long long base, const char *variant, int width)
{
    uint64_t h = 1469598103934665603ull ^ base;
    for (const char *c = variant; *c; ++c)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return (h ^ (uint64_t)width) * 1099511628211ull;
}

static int check_memory(const struct gpu *g, const struct options *o, struct error *e)
{
    for (int s = 0; s < o->n_sizes; ++s)
        for (int v = 0; v < o->n_variants; ++v) {
            char purpose[128];
            snprintf(purpose, sizeof purpose, "%s at W=%d", o->variants[v]->name, o->sizes[s]);
            if (gpu_require_free_memory(g, job_device_bytes(o->variants[v], o->sizes[s]), purpose, e))
                return e->code;
        }
    return 0;
}

static int run_jobs(struct gpu *g, const struct options *o, struct job_result *jobs, int *done, struct error *e)
{
    struct progress progress;
    int total = o->n_sizes * o->n_variants;
    progress_init(&progress, total);
    trace_run_begin();
    for (int s = 0; s < o->n_sizes && !e->code; ++s)
        for (int v = 0; v < o->n_variants && !e->code; ++v) {
            const struct matmul_variant *variant = o->variants[v];
            progress_job(&progress, *done + 1, variant->name, o->sizes[s]);
            uint64_t seed = job_seed(o->seed, variant->name, o->sizes[s]);
            if (job_run(g, variant, o->sizes[s], seed, &o->timing, &progress, &jobs[*done], e) == 0)
                ++*done;
        }
    trace_end();
    progress_clear(&progress);
    return e->code;
}

static int write_results(const struct results_dir *dir, const struct environment *env, const struct job_result *jobs,
                         int count, struct error *e)
{
    if (env_write(env, dir->partial_path, e) || results_write_summary(dir->partial_path, jobs, count, e) ||
        results_write_samples(dir->partial_path, jobs, count, e) || results_dir_commit(dir, e))
        return e->code;
    return 0;
}

static int count_failures(const struct job_result *jobs, int count)
{
    int failed = 0;
    for (int i = 0; i < count; ++i)
        failed += !jobs[i].passed;
    return failed;
}

static int measure(struct gpu *g, const struct options *o, const struct results_dir *dir, struct environment *env,
                   struct error *e)
{
    int total = o->n_sizes * o->n_variants, done = 0;
    struct job_result *jobs = calloc((size_t)total, sizeof *jobs);
    if (!jobs)
        return error_set(e, EXIT_RUNTIME, "out of host memory");
    env_collect_clocks(env, g, "start");
    if (run_jobs(g, o, jobs, &done, e) == 0) {
        env_collect_clocks(env, g, "end");
        if (write_results(dir, env, jobs, done, e) == 0) {
            results_print_table(stdout, jobs, done);
            printf("results: %s\n", dir->final_path);
        }
    }
    int failed = count_failures(jobs, done);
    for (int i = 0; i < done; ++i)
        job_free(&jobs[i]);
    free(jobs);
    if (!e->code && failed)
        return error_set(e, EXIT_CHECK_FAILED, "%d of %d variant x size runs failed their correctness check", failed,
                         total);
    return e->code;
}

static int run(int argc, char **argv, struct error *e)
{
    struct options o;
    struct results_dir dir;
    struct environment env = {0};
    struct gpu g = {0};
    if (cli_parse(argc, argv, &o, e))
        return e->code;
    if (o.help || o.list) {
        o.help ? cli_print_help(stdout) : cli_print_variants(stdout);
        return 0;
    }
    if (results_dir_plan(&dir, o.out_dir, e))
        return e->code;
    env_collect_host(&env, argc, argv);
    if (gpu_open(&g, o.device, e) == 0 && check_memory(&g, &o, e) == 0 && env_collect_gpu(&env, &g, e) == 0 &&
        results_dir_create(&dir, e) == 0 && measure(&g, &o, &dir, &env, e) > EXIT_CHECK_FAILED)
        fprintf(stderr, "memscope: incomplete results left in %s\n", dir.partial_path);
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
