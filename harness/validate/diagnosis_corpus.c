#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../cupti/subscriber.h"
#include "../../kernels/matmul.h"
#include "../../kernels/pathology/pathology.h"
#include "../common/paths.h"
#include "../gpu/kernel_facts.h"
#include "../gpu/nvtx.h"
#include "../profile/metric_catalog.h"
#include "../profile/metric_rows.h"
#include "../profile/metric_set.h"
#include "../profile/profile_summary.h"
#include "../results/findings_csv.h"
#include "../results/validate_csv.h"
#include "case_source.h"
#include "diagnosis_corpus.h"
#include "validate.h"

_Static_assert(PATHOLOGY_CASE_COUNT <= VALIDATE_MAX_CASES, "the corpus is profiled in one batch");

/* What one case measured: its metric passes, its launch as the driver saw it, and with the source group its lines
 * and exact shared-memory sums. */
struct case_result {
    struct profile profile;
    struct launch_facts launch;
    bool sourced;
    struct exact_shared exact;
    struct finding_lines lines;
    double conversions_on_lines; /* the source group's conversions summed over the kernel's lines; NAN without it */
    double duration_ms;
};

/* The case's kernel's resources, from the last launch the profiler saw (the case's: the L2's emptying comes before
 * it): its launcher keeps the kernel to itself. */
static int launch_of_case(const struct gpu *g, struct launch_facts *out, struct error *e)
{
    struct prof_launch l;
    struct kernel_facts f;
    *out = (struct launch_facts){NAN, NAN, NAN};
    if (!prof_last_launch(&l))
        return error_set(e, EXIT_RUNTIME, "the profiler saw no launch of the pathology case");
    int threads = (int)(l.block[0] * l.block[1] * l.block[2]);
    if (kernel_facts_of_function(g, l.function, threads, l.dynamic_shared, &f, e))
        return e->code;
    *out = (struct launch_facts){f.registers_per_thread, (double)(f.static_smem_bytes + f.dynamic_smem_bytes),
                                 f.threads_per_block};
    return 0;
}

/* A case in the batch: what its launch needs, and where its launch facts go. */
struct case_context {
    const struct pathology_case *c;
    const struct pathology_buffers *b;
    const struct gpu *g;
    struct case_result *r;
    bool launch_read;
};

/* Launches the case and waits; its first launch (the first metric pass's) is read for its resources, while the
 * profiler that sees launches is on and no other case has launched since. */
static int launch_and_wait(void *context, struct error *e)
{
    struct case_context *x = context;
    const char *why = x->c->launch(x->b, x->g->stream);
    if (why)
        return error_set(e, EXIT_RUNTIME, "launching the pathology case %s: %s", x->c->name, why);
    CUDA_TRY(e, cudaStreamSynchronize(x->g->stream));
    if (!x->launch_read && launch_of_case(x->g, &x->r->launch, e) == 0)
        x->launch_read = true;
    return e->code;
}

/* The source group's run of the case: its lines for the findings to name, and its exact shared-memory sums. */
static int source_of_case(struct gpu *g, struct source_collector *s, const struct profiled_call *call,
                          const char *path, struct case_result *r, struct error *e)
{
    double totals[LINE_METRIC_COUNT];
    if (case_source(g, s, call, path, totals, &r->lines, e) == 0) {
        r->exact = (struct exact_shared){totals[LINE_SHARED_EXCESS_WAVEFRONTS], totals[LINE_SHARED_WAVEFRONTS]};
        r->conversions_on_lines = totals[LINE_CONVERSIONS];
        r->sourced = true;
    }
    return e->code;
}

/* The case's duration, from its main kernel's metrics. */
static double case_duration_ms(const struct profile *p)
{
    struct derived_metric derived[MAX_DERIVED];
    metrics_derive(p->names, p->kernels[profile_main_kernel(p)].values, p->n_metrics, derived);
    return derived[METRIC_DURATION_MS].value;
}

/* The cases that run, their metric passes in one batch, each case's kernel once a pass from an emptied L2, as a run
 * profiles a size's variants (profiled one at a time, they paid the passes' fixed cost once each: docs/report.md);
 * then each case's source counters. */
static int profile_cases(struct gpu *g, struct metrics_collector *m, struct source_collector *s,
                         const struct pathology_buffers *b, const char *capture_dir, const char *const *refused,
                         struct case_result *results, struct error *e)
{
    static struct case_context contexts[PATHOLOGY_CASE_COUNT];
    static struct profiled_call calls[PATHOLOGY_CASE_COUNT];
    size_t index[PATHOLOGY_CASE_COUNT];
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    int n = 0;
    for (size_t i = 0; i < PATHOLOGY_CASE_COUNT; ++i) {
        struct case_result *r = &results[i];
        if (refused[i])
            continue;
        memset(r, 0, sizeof *r);
        r->exact = (struct exact_shared){NAN, NAN};
        r->conversions_on_lines = NAN;
        const char *name = pathology_cases[i].name;
        contexts[n] = (struct case_context){&pathology_cases[i], b, g, r, false};
        calls[n] = (struct profiled_call){launch_and_wait, &contexts[n], name, "fp32", PRODUCT_SHAPE_NONE, &r->profile};
        index[n++] = i;
    }
    snprintf(path, sizeof path, "%s/02-pathology.capture", capture_dir); /* after 01-truth.capture */
    nvtx_phase_begin(PHASE_METRICS, 0);
    if (n > 0)
        metrics_collect(m, g, calls, n, path, e);
    nvtx_end();
    for (int k = 0; k < n && !e->code; ++k) {
        size_t i = index[k];
        struct case_result *r = &results[i];
        snprintf(path, sizeof path, "%s/pathology-%02zu-%s.source", capture_dir, i + 1, pathology_cases[i].name);
        nvtx_job_begin(pathology_cases[i].name, PRODUCT_SHAPE_NONE);
        if (s)
            source_of_case(g, s, &calls[k], path, r, e);
        nvtx_end();
        r->duration_ms = case_duration_ms(&r->profile);
    }
    return e->code;
}

static int case_index(const char *name)
{
    for (size_t i = 0; i < PATHOLOGY_CASE_COUNT; ++i)
        if (strcmp(pathology_cases[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* The gain the fix measured: the share of the case's time its fixed sibling saves (NAN without a sibling). */
static double measured_gain(const struct pathology_case *c, const double *duration_ms)
{
    int sibling = case_index(c->sibling);
    int self = case_index(c->name);
    return sibling < 0 ? NAN : 100.0 * (1.0 - duration_ms[sibling] / duration_ms[self]);
}

static void write_case(struct csv *out, const struct pathology_case *c, const struct finding *first, int n,
                       double measured, int *checks, int *failures)
{
    const char *found = n > 0 ? first->cause : "none";
    double estimated = n > 0 ? first->gain_pct : NAN;
    bool pass = strcmp(found, c->expected) == 0;
    char parameter[64] = "";
    if (*c->sibling)
        snprintf(parameter, sizeof parameter, "sibling=%s", c->sibling);
    ++*checks;
    *failures += !pass;
    char measured_text[16] = "-"; /* a case without a fixed sibling has no measured gain */
    if (!isnan(measured))
        snprintf(measured_text, sizeof measured_text, "%5.1f %%", measured);
    printf("%-24s expected %-26s found %-26s estimated gain %5.1f %% measured %7s %s\n", c->name, c->expected,
           found, estimated, measured_text, pass ? "pass" : "FAIL");
    validate_csv_row(out, &(struct validate_row){c->name, parameter, "first_finding", NAN, NAN, NAN, NAN, pass,
                                                 c->expected, found, estimated, measured});
}

/* Where the kernel converted types, the source group must place every conversion on a line: the sum over its lines
 * equals the kernel's counter exactly (both count predicated-on lanes of the converting instructions). A kernel
 * without a line table (cuBLAS's) is not checked: its opcodes are not named either. */
static void check_conversions_placed(struct csv *out, const struct pathology_case *c, const struct case_result *r,
                                     int *checks, int *failures)
{
    const struct profile *p = &r->profile;
    double kernel = metric_lookup(p->names, p->kernels[profile_main_kernel(p)].values, p->n_metrics,
                                  COLLECTED(CONVERSIONS));
    if (!r->sourced || !r->lines.placed || isnan(kernel) || kernel == 0.0)
        return;
    bool pass = r->conversions_on_lines == kernel;
    ++*checks;
    *failures += !pass;
    printf("%-24s conversions on its lines %.0f, the kernel's counter %.0f %s\n", c->name, r->conversions_on_lines,
           kernel, pass ? "pass" : "FAIL");
    validate_csv_row(out, &(struct validate_row){c->name, "", "conversions_on_lines", kernel, kernel, kernel,
                                                 r->conversions_on_lines, pass, "", "", NAN, NAN});
}

/* A case this build cannot launch (a kernel that needs sm_90a in a build for another architecture) says so before
 * anything is profiled: it is left out of the judging, and said so. Launching it once here is harmless: every case
 * may run any number of times. *refused: its reason, or NULL where it ran. */
static int case_refused(const struct pathology_case *c, const struct pathology_buffers *b, cudaStream_t stream,
                        const char **refused, struct error *e)
{
    const char *why = c->launch(b, stream);
    *refused = NULL;
    if (why == NULL) {
        CUDA_TRY(e, cudaStreamSynchronize(stream));
        return 0;
    }
    if (!matmul_refusal(why))
        return error_set(e, EXIT_RUNTIME, "launching the pathology case %s: %s", c->name, why);
    printf("%-24s not run: this build %s\n", c->name, why);
    *refused = why;
    return 0;
}

/* Every case profiled first (a case's measured gain needs its sibling's time), then judged. */
static int run_cases(struct gpu *g, struct metrics_collector *m, struct source_collector *s,
                     const struct pathology_buffers *b, const char *capture_dir, const struct environment *env,
                     struct csv *out, struct csv *metrics, struct csv *findings, int *checks, int *failures,
                     struct error *e)
{
    static struct case_result results[PATHOLOGY_CASE_COUNT];
    static struct finding found[PATHOLOGY_CASE_COUNT][FINDING_MAX];
    int n_found[PATHOLOGY_CASE_COUNT];
    double duration_ms[PATHOLOGY_CASE_COUNT];
    const char *refused[PATHOLOGY_CASE_COUNT];
    for (size_t i = 0; i < PATHOLOGY_CASE_COUNT; ++i)
        refused[i] = NULL, duration_ms[i] = NAN;
    for (size_t i = 0; i < PATHOLOGY_CASE_COUNT && !e->code; ++i)
        case_refused(&pathology_cases[i], b, g->stream, &refused[i], e);
    if (e->code || profile_cases(g, m, s, b, capture_dir, refused, results, e))
        return e->code;
    for (size_t i = 0; i < PATHOLOGY_CASE_COUNT; ++i) {
        const struct pathology_case *c = &pathology_cases[i];
        const struct case_result *r = &results[i];
        const struct profile *p = &r->profile;
        if (refused[i])
            continue;
        profile_write_rows(metrics, c->name, "fp32", PRODUCT_SHAPE_NONE, p);
        n_found[i] = profile_findings(p, profile_main_kernel(p), &r->exact, env, &r->launch,
                                      r->sourced ? &r->lines : NULL, found[i], FINDING_MAX);
        profile_write_findings(findings, c->name, "fp32", PRODUCT_SHAPE_NONE, p->kernels[profile_main_kernel(p)].kernel,
                               found[i], n_found[i]);
        duration_ms[i] = r->duration_ms;
    }
    for (size_t i = 0; i < PATHOLOGY_CASE_COUNT && !e->code; ++i)
        if (!refused[i])
            write_case(out, &pathology_cases[i], found[i], n_found[i],
                       measured_gain(&pathology_cases[i], duration_ms), checks, failures);
    for (size_t i = 0; i < PATHOLOGY_CASE_COUNT && !e->code; ++i)
        if (!refused[i])
            check_conversions_placed(out, &pathology_cases[i], &results[i], checks, failures);
    return e->code;
}

int corpus_validate(struct gpu *g, struct metrics_collector *m, struct source_collector *s, const char *dir,
                    const char *capture_dir, const struct environment *env, struct csv *out, struct csv *metrics,
                    int *checks, int *failures, struct error *e)
{
    struct pathology_buffers b = {0};
    struct csv findings;
    const char *why = pathology_allocate(&b);
    if (why)
        return error_set(e, EXIT_RUNTIME, "the pathology corpus's buffers: %s", why);
    if (findings_csv_create(&findings, dir, e) == 0) {
        run_cases(g, m, s, &b, capture_dir, env, out, metrics, &findings, checks, failures, e);
        csv_close(&findings, e);
    }
    why = pathology_release(&b);
    if (why && !e->code)
        error_set(e, EXIT_RUNTIME, "the pathology corpus's buffers: %s", why);
    return e->code;
}
