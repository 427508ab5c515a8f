#include <math.h>
#include <string.h>

#include "../diagnose/diagnosis.h"
#include "../results/schema.h"
#include "summary_csv.h"

static const char *status_of(const struct job_result *r)
{
    if (r->passed)
        return "passed";
    return r->check.passed ? "failed_recheck" : "failed";
}

static void write_timing(struct csv *c, const struct job_result *r)
{
    const struct sample_stats *s = &r->timing.stats;
    double flop = matmul_flop(r->width), bytes = matmul_min_bytes(r->variant, r->width);
    if (r->timing.n == 0) {
        csv_int(c, 0);
        for (int i = 0; i < 9; ++i)
            csv_empty(c);
    } else {
        csv_int(c, r->timing.n);
        csv_text(c, r->timing.stop_reason);
        double values[] = {s->min, s->q1, s->median, s->q3, s->max, s->mean, s->stdev, s->ci95_rel};
        for (size_t i = 0; i < sizeof values / sizeof values[0]; ++i)
            csv_real(c, values[i]);
    }
    csv_real(c, flop);
    csv_real(c, bytes);
    csv_real(c, r->timing.n ? flop / (s->median * 1e-3) / 1e9 : NAN);
    csv_real(c, r->timing.n ? bytes / (s->median * 1e-3) / 1e9 : NAN);
}

/* The derived metric each of the summary's metric columns shows, from SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT on. */
static const enum derived_metric_id headline[] = {
    METRIC_GLOBAL_LOAD_EFFICIENCY, METRIC_SECTORS_PER_REQUEST_LD, METRIC_SHARED_CONFLICTS_HW,
    METRIC_SHARED_EXCESS_ESTIMATE, METRIC_DRAM_GBS, METRIC_DRAM_PCT_OF_PEAK,
    METRIC_ACHIEVED_GFLOPS, METRIC_ACHIEVED_OCCUPANCY, METRIC_SOL_SM_PCT, METRIC_SOL_MEMORY_PCT,
    METRIC_SOL_L1_PCT, METRIC_SOL_L2_PCT, METRIC_SOL_DRAM_PCT, METRIC_FMA_PIPE_PCT, METRIC_ISSUE_SLOTS_PCT,
    METRIC_FP64_TENSOR_PIPE_PCT,
};
#define N_HEADLINE (sizeof headline / sizeof headline[0])
_Static_assert(SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT + N_HEADLINE == SUMMARY_METRICS_WALL_MS,
               "one derived metric per summary metric column");

/* Empty fields where no metric was collected: "not collected" is never written as zero. */
static void write_headline(struct csv *c, const struct job_result *r)
{
    struct derived_metric derived[MAX_DERIVED];
    if (!r->profiled) {
        for (int i = SUMMARY_METRICS_KERNEL; i < SUMMARY_REGISTERS_PER_THREAD; ++i)
            csv_empty(c);
        return;
    }
    const struct profile *p = &r->profile;
    const struct kernel_profile *k = &p->kernels[profile_main_kernel(p)];
    metrics_derive(p->names, k->values, p->n_metrics, derived);
    csv_text(c, k->kernel);
    for (size_t i = 0; i < N_HEADLINE; ++i)
        csv_real(c, derived[headline[i]].value);
    csv_real(c, p->wall_ms);
    csv_real(c, p->replay_ms);
    csv_real(c, p->wall_ms - p->replay_ms);
}

/* Empty fields for a library call: its kernels are not ours to ask about. */
static void write_facts(struct csv *c, const struct kernel_facts *f)
{
    if (!f->known) {
        for (int i = SUMMARY_REGISTERS_PER_THREAD; i < SUMMARY_SHARED_CONFLICTS_EXACT; ++i)
            csv_empty(c);
        return;
    }
    csv_int(c, f->registers_per_thread);
    csv_uint(c, f->static_smem_bytes);
    csv_uint(c, f->dynamic_smem_bytes);
    csv_int(c, f->threads_per_block);
    csv_real(c, f->theoretical_occupancy_pct);
}

/* Exact per-instruction sums from the source group; empty without it, never the kernel-total estimate. */
static void write_source(struct csv *c, const struct job_result *r)
{
    if (!r->sourced) {
        for (int i = SUMMARY_SHARED_CONFLICTS_EXACT; i < SUMMARY_LIMITER; ++i)
            csv_empty(c);
        return;
    }
    csv_real(c, r->source_totals[LINE_SHARED_EXCESS_WAVEFRONTS]);
    csv_real(c, r->source_totals[LINE_GLOBAL_EXCESS_SECTORS]);
    csv_real(c, r->source_cost.wall_ms);
    csv_real(c, r->source_cost.gpu_ms);
}

/* The share of shared wavefronts that are bank conflicts: exact with the source group, else the kernel-total
 * estimate (right for 32-bit accesses, the lessons'). */
static double conflict_share_pct(const struct job_result *r, const struct profile *p, const double *values,
                                 const struct derived_metric *derived)
{
    double excess = r->sourced ? r->source_totals[LINE_SHARED_EXCESS_WAVEFRONTS]
                               : fmax(0.0, derived[METRIC_SHARED_EXCESS_ESTIMATE].value);
    double wavefronts = r->sourced ? r->source_totals[LINE_SHARED_WAVEFRONTS]
                                   : metric_lookup(p->names, values, p->n_metrics, COLLECTED(SHARED_LD_WAVEFRONTS)) +
                                         metric_lookup(p->names, values, p->n_metrics, COLLECTED(SHARED_ST_WAVEFRONTS));
    return wavefronts == 0.0 ? 0.0 : 100.0 * excess / wavefronts; /* no shared access: no conflict */
}

int job_diagnose(const struct job_result *r, struct diagnosis *d)
{
    static const enum derived_metric_id from[DIAGNOSIS_INPUT_COUNT] = {
        [IN_SOL_L1] = METRIC_SOL_L1_PCT,       [IN_SOL_L2] = METRIC_SOL_L2_PCT,
        [IN_SOL_DRAM] = METRIC_SOL_DRAM_PCT,   [IN_FMA_PIPE] = METRIC_FMA_PIPE_PCT,
        [IN_ISSUE_SLOTS] = METRIC_ISSUE_SLOTS_PCT, [IN_SOL_SM] = METRIC_SOL_SM_PCT,
        [IN_SOL_MEMORY] = METRIC_SOL_MEMORY_PCT, [IN_OCCUPANCY] = METRIC_ACHIEVED_OCCUPANCY,
        [IN_SECTORS_PER_REQUEST_LD] = METRIC_SECTORS_PER_REQUEST_LD, [IN_FP64_TENSOR_PIPE] = METRIC_FP64_TENSOR_PIPE_PCT,
        [IN_LOAD_EFFICIENCY] = METRIC_GLOBAL_LOAD_EFFICIENCY, [IN_FLOP_FP32] = METRIC_FLOP_FP32,
        [IN_FLOP_FP64] = METRIC_FLOP_FP64};
    struct derived_metric derived[MAX_DERIVED];
    double inputs[DIAGNOSIS_INPUT_COUNT];
    if (!r->profiled)
        return -1;
    const struct profile *p = &r->profile;
    const double *values = p->kernels[profile_main_kernel(p)].values;
    metrics_derive(p->names, values, p->n_metrics, derived);
    for (int i = 0; i < DIAGNOSIS_INPUT_COUNT; ++i)
        inputs[i] = i == IN_CONFLICT_SHARE ? conflict_share_pct(r, p, values, derived) : derived[from[i]].value;
    /* No global load instruction (cp.async kernels): nothing is uncoalesced, whatever the efficiency reads. */
    if (metric_lookup(p->names, values, p->n_metrics, COLLECTED(GLOBAL_LD_REQUESTS)) == 0.0)
        inputs[IN_LOAD_EFFICIENCY] = 100.0;
    diagnose(inputs, d);
    return 0;
}

/* Empty without metrics; "not collected" when the sol group was left out. */
static void write_diagnosis(struct csv *c, const struct job_result *r)
{
    struct diagnosis d;
    if (job_diagnose(r, &d) != 0) {
        csv_empty(c);
        csv_empty(c);
        return;
    }
    csv_text(c, d.limiter);
    csv_text(c, d.evidence);
}

/* The busiest kernel's samples and top reason; empty without the stalls group or when CUPTI recorded no
 * instruction of the call (kernels it counts as another's). */
static void write_stalls(struct csv *c, const struct job_result *r)
{
    if (!r->sampled || r->stalls.samples == 0) {
        for (int i = SUMMARY_STALL_SAMPLES; i < SUMMARY_STALL_WALL_MS; ++i)
            csv_empty(c);
    } else {
        csv_uint(c, r->stalls.samples);
        csv_text(c, r->stalls.top_reason);
        csv_real(c, r->stalls.top_pct);
    }
    if (r->sampled)
        csv_real(c, r->stalls.wall_ms);
    else
        csv_empty(c);
}

int results_write_summary(const char *dir, const struct job_result *jobs, int count, struct error *e)
{
    struct csv c;
    if (schema_create(&c, dir, &summary_csv, e))
        return e->code;
    for (int i = 0; i < count; ++i) {
        const struct job_result *r = &jobs[i];
        const struct check_result *check = r->check.passed ? &r->recheck : &r->check;
        csv_text(&c, r->variant->name);
        csv_text(&c, matmul_precision_name(r->variant->precision));
        csv_text(&c, matmul_layout_name(r->variant->layout));
        csv_int(&c, r->width);
        csv_text(&c, status_of(r));
        csv_text(&c, r->reference);
        csv_uint(&c, r->seed);
        csv_real(&c, check->non_finite ? NAN : check->max_error);
        csv_real(&c, check->non_finite ? NAN : check->rel_l2_error);
        csv_real(&c, check->tolerance);
        write_timing(&c, r);
        write_headline(&c, r);
        write_facts(&c, &r->facts);
        write_source(&c, r);
        write_diagnosis(&c, r);
        write_stalls(&c, r);
        csv_text(&c, r->other_gpu_work);
        csv_end_row(&c);
    }
    return csv_close(&c, e);
}

int results_write_samples(const char *dir, const struct job_result *jobs, int count, struct error *e)
{
    struct csv c;
    if (schema_create(&c, dir, &samples_csv, e))
        return e->code;
    for (int i = 0; i < count; ++i)
        for (int s = 0; s < jobs[i].timing.n; ++s) {
            csv_text(&c, jobs[i].variant->name);
            csv_text(&c, matmul_precision_name(jobs[i].variant->precision));
            csv_int(&c, jobs[i].width);
            csv_int(&c, s);
            csv_real(&c, jobs[i].timing.samples_ms[s]);
            csv_end_row(&c);
        }
    return csv_close(&c, e);
}

int results_write_variants(const char *dir, const struct matmul_variant *const *variants, int count,
                           struct error *e)
{
    struct csv c;
    if (schema_create(&c, dir, &variants_csv, e))
        return e->code;
    for (int i = 0; i < count; ++i) {
        const struct matmul_variant *v = variants[i];
        csv_text(&c, v->name);
        csv_text(&c, matmul_precision_name(v->precision));
        csv_text(&c, matmul_layout_name(v->layout));
        csv_uint(&c, v->block_x);
        csv_uint(&c, v->block_y);
        csv_uint(&c, v->tile_x);
        csv_uint(&c, v->tile_y);
        csv_int(&c, matmul_ladder_step(v->name));
        csv_text(&c, v->description);
        csv_end_row(&c);
    }
    return csv_close(&c, e);
}

void results_print_table(FILE *f, const struct job_result *jobs, int count)
{
    fprintf(f, "%-24s %6s %-8s %11s %9s %9s %8s %7s\n", "variant", "width", "status", "median_ms", "GFLOP/s",
            "GB/s", "samples", "spread");
    for (int i = 0; i < count; ++i) {
        const struct job_result *r = &jobs[i];
        const struct sample_stats *s = &r->timing.stats;
        if (r->timing.n == 0) {
            fprintf(f, "%-24s %6d %-8s (max error %.3g, %zu non-finite)\n", r->variant->name, r->width, status_of(r),
                    r->check.max_error, r->check.non_finite);
            continue;
        }
        fprintf(f, "%-24s %6d %-8s %11.4f %9.1f %9.1f %8d %6.2f%%\n", r->variant->name, r->width, status_of(r),
                s->median, matmul_flop(r->width) / (s->median * 1e-3) / 1e9,
                matmul_min_bytes(r->variant, r->width) / (s->median * 1e-3) / 1e9, r->timing.n, s->ci95_rel * 100);
    }
}
