#include <math.h>
#include <stdio.h>

#include "../ceilings/rates.h"
#include "../common/numbers.h"
#include "../profile/profile_summary.h"
#include "../results/summary_csv.h"
#include "summary_rows.h"

static const char *status_of(const struct job_result *r)
{
    if (r->check.refused)
        return "refused";
    if (r->passed)
        return "passed";
    return r->check.passed ? "failed_recheck" : "failed";
}

static void fill_check(const struct job_result *r, struct summary_row *row)
{
    const struct check_result *check = r->check.passed ? &r->recheck : &r->check;
    row->variant = r->variant->name;
    row->precision = matmul_precision_name(r->variant->precision);
    row->layout = matmul_layout_name(r->variant->layout);
    row->shape = r->key;
    row->status = status_of(r);
    row->reference = r->reference;
    row->seed = r->seed;
    row->max_error = check->non_finite || r->check.refused ? NAN : check->max_error;
    row->rel_l2_error = check->non_finite || r->check.refused ? NAN : check->rel_l2_error;
    row->tolerance = check->tolerance;
    if (r->check.refused)
        row->stop_reason = r->check.refused;
}

static void fill_timing(const struct job_result *r, struct summary_row *row)
{
    const struct sample_stats *s = &r->timing.stats;
    row->samples = r->timing.n;
    row->flop = matmul_flop(r->shape);
    row->min_bytes = matmul_min_bytes(r->variant, r->shape);
    if (r->timing.n == 0)
        return;
    row->stop_reason = r->timing.stop_reason;
    row->min_ms = s->min;
    row->q1_ms = s->q1;
    row->median_ms = s->median;
    row->q3_ms = s->q3;
    row->max_ms = s->max;
    row->mean_ms = s->mean;
    row->stdev_ms = s->stdev;
    row->ci95_rel = s->ci95_rel;
    row->gflops = row->flop / (s->median * 1e-3) / 1e9;
    row->effective_gbs = row->min_bytes / (s->median * 1e-3) / 1e9;
}

/* Left empty where no metric was collected: "not collected" is never written as zero. */
static void fill_metrics(const struct job_result *r, struct summary_row *row)
{
    if (!r->profiled)
        return;
    const struct profile *p = &r->profile;
    row->metrics_kernel = p->kernels[profile_main_kernel(p)].kernel;
    profile_headline(p, profile_main_kernel(p), row->headline);
    row->metrics_wall_ms = p->wall_ms;
    row->metrics_replay_ms = p->replay_ms;
    row->metrics_overhead_ms = p->wall_ms - p->replay_ms;
}

/* Left empty for a library call: its kernels are not ours to ask about. */
static void fill_facts(const struct kernel_facts *f, struct summary_row *row)
{
    if (!f->known)
        return;
    row->registers_per_thread = f->registers_per_thread;
    row->static_smem_bytes = (double)f->static_smem_bytes;
    row->dynamic_smem_bytes = (double)f->dynamic_smem_bytes;
    row->threads_per_block = f->threads_per_block;
    row->theoretical_occupancy_pct = f->theoretical_occupancy_pct;
}

/* Exact per-instruction sums from the source group; empty without it, never the kernel-total estimate. */
static void fill_source(const struct job_result *r, struct summary_row *row)
{
    if (!r->sourced)
        return;
    row->shared_conflicts_exact = r->source_totals[LINE_SHARED_EXCESS_WAVEFRONTS];
    row->global_excess_sectors = r->source_totals[LINE_GLOBAL_EXCESS_SECTORS];
    row->source_wall_ms = r->source_cost.wall_ms;
    row->source_gpu_ms = r->source_cost.gpu_ms;
}

static struct exact_shared exact_of(const struct job_result *r)
{
    if (!r->sourced)
        return (struct exact_shared){NAN, NAN};
    return (struct exact_shared){r->source_totals[LINE_SHARED_EXCESS_WAVEFRONTS], r->source_totals[LINE_SHARED_WAVEFRONTS]};
}

void job_diagnose(const struct job_result *r, const struct environment *env, struct diagnosis *d)
{
    struct exact_shared exact = exact_of(r);
    profile_diagnose(&r->profile, profile_main_kernel(&r->profile), &exact, env, d);
}

int job_findings(const struct job_result *r, const struct environment *env, struct finding *out, int max)
{
    struct exact_shared exact = exact_of(r);
    const struct kernel_facts *f = &r->facts;
    struct launch_facts launch = {NAN, NAN, NAN};
    if (f->known)
        launch = (struct launch_facts){f->registers_per_thread, (double)(f->static_smem_bytes + f->dynamic_smem_bytes),
                                       f->threads_per_block};
    return profile_findings(&r->profile, profile_main_kernel(&r->profile), &exact, env, &launch,
                            r->sourced ? &r->lines : NULL, out, max);
}

/* Empty without metrics; "not collected" when the sol group was left out. */
static void fill_diagnosis(const struct job_result *r, const struct environment *env, struct summary_row *row)
{
    struct diagnosis d;
    _Static_assert(sizeof d.limiter <= SUMMARY_LIMITER_LEN && sizeof d.evidence <= SUMMARY_EVIDENCE_LEN,
                   "the summary row holds a whole diagnosis");
    if (!r->profiled)
        return;
    job_diagnose(r, env, &d);
    snprintf(row->limiter, sizeof row->limiter, "%s", d.limiter);
    snprintf(row->evidence, sizeof row->evidence, "%s", d.evidence);
    struct finding f[FINDING_MAX];
    profile_first_finding(f, job_findings(r, env, f, FINDING_MAX), row);
}

/* The busiest kernel's samples and top reason; empty without the stalls group or when CUPTI recorded no
 * instruction of the call (kernels it counts as another's). */
static void fill_stalls(const struct job_result *r, struct summary_row *row)
{
    if (!r->sampled)
        return;
    row->stall_wall_ms = r->stalls.wall_ms;
    if (r->stalls.samples == 0)
        return;
    row->stall_samples = (double)r->stalls.samples;
    row->stall_top_reason = r->stalls.top_reason;
    row->stall_top_pct = r->stalls.top_pct;
}

/* Empty for a variant that is not FP32 (its roof is another) and for a run that measured no FP32 ceiling. */
static void fill_roof_share(const struct job_result *r, const struct environment *env, struct summary_row *row)
{
    if (r->variant->precision == MATMUL_FP32)
        row->fp32_roof_pct = ceiling_share_pct(row->gflops, ceiling_recorded(env, CEILING_FP32));
}

/* The main kernel's tensor work and its share of the measured roof of its type; empty without the tensor group. */
static void fill_tensor(const struct job_result *r, const struct environment *env, struct summary_row *row)
{
    struct tensor_work w;
    if (!r->profiled)
        return;
    profile_tensor_work(&r->profile, profile_main_kernel(&r->profile), env, &w);
    row->tensor_type = w.type;
    row->tensor_flop = w.flop;
    row->tensor_tflops = w.tflops;
    row->tensor_roof_pct = w.roof_pct;
}

int run_write_summary(const char *dir, const struct job_result *jobs, int count, const struct environment *env,
                      struct error *e)
{
    struct csv c;
    if (summary_csv_create(&c, dir, e))
        return e->code;
    for (int i = 0; i < count; ++i) {
        const struct job_result *r = &jobs[i];
        struct summary_row row;
        summary_row_init(&row);
        fill_check(r, &row);
        fill_timing(r, &row);
        fill_metrics(r, &row);
        fill_facts(&r->facts, &row);
        fill_source(r, &row);
        fill_diagnosis(r, env, &row);
        fill_stalls(r, &row);
        row.other_gpu_work = r->other_gpu_work;
        fill_roof_share(r, env, &row);
        fill_tensor(r, env, &row);
        summary_csv_row(&c, &row);
    }
    return csv_close(&c, e);
}

int run_write_findings(const char *dir, const struct job_result *jobs, int count, const struct environment *env,
                       struct error *e)
{
    struct csv c;
    if (findings_csv_create(&c, dir, e))
        return e->code;
    for (int i = 0; i < count; ++i) {
        const struct job_result *r = &jobs[i];
        struct finding f[FINDING_MAX];
        if (r->profiled)
            profile_write_findings(&c, r->variant->name, matmul_precision_name(r->variant->precision), r->key,
                                   r->profile.kernels[profile_main_kernel(&r->profile)].kernel, f,
                                   job_findings(r, env, f, FINDING_MAX));
    }
    return csv_close(&c, e);
}

int run_write_samples(const char *dir, const struct job_result *jobs, int count, struct error *e)
{
    struct csv c;
    if (samples_csv_create(&c, dir, e))
        return e->code;
    for (int i = 0; i < count; ++i)
        for (int s = 0; s < jobs[i].timing.n; ++s)
            samples_csv_row(&c, &(struct sample_row){jobs[i].variant->name,
                                                     matmul_precision_name(jobs[i].variant->precision), jobs[i].key, s,
                                                     jobs[i].timing.samples_ms[s]});
    return csv_close(&c, e);
}

int run_write_variants(const char *dir, const struct matmul_variant *const *variants, int count, struct error *e)
{
    struct csv c;
    if (variants_csv_create(&c, dir, e))
        return e->code;
    for (int i = 0; i < count; ++i) {
        const struct matmul_variant *v = variants[i];
        variants_csv_row(&c, &(struct variant_row){v->name, matmul_precision_name(v->precision),
                                                    matmul_layout_name(v->layout), v->block_x, v->block_y, v->tile_x,
                                                    v->tile_y, matmul_ladder_step(v->name), v->description,
                                                    matmul_tensor_ladder_step(v->name)});
    }
    return csv_close(&c, e);
}

void run_print_table(FILE *f, const struct job_result *jobs, int count)
{
    fprintf(f, "%-24s %14s %-8s %11s %9s %9s %8s %7s\n", "variant", "size", "status", "median_ms", "GFLOP/s", "GB/s",
            "samples", "spread");
    for (int i = 0; i < count; ++i) {
        const struct job_result *r = &jobs[i];
        const struct sample_stats *s = &r->timing.stats;
        char size[PRODUCT_SHAPE_LEN];
        product_shape_text(r->key, size);
        if (r->check.refused) {
            fprintf(f, "%-24s %14s %-8s (%s)\n", r->variant->name, size, status_of(r), r->check.refused);
            continue;
        }
        if (r->timing.n == 0) {
            fprintf(f, "%-24s %14s %-8s (max error %.3g, %zu non-finite)\n", r->variant->name, size, status_of(r),
                    r->check.max_error, r->check.non_finite);
            continue;
        }
        fprintf(f, "%-24s %14s %-8s %11.4f %9.1f %9.1f %8d %6.2f%%\n", r->variant->name, size, status_of(r), s->median,
                matmul_flop(r->shape) / (s->median * 1e-3) / 1e9,
                matmul_min_bytes(r->variant, r->shape) / (s->median * 1e-3) / 1e9, r->timing.n, s->ci95_rel * 100);
    }
}
