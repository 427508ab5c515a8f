#include <math.h>
#include <string.h>

#include "summary_csv.h"

void summary_row_init(struct summary_row *r)
{
    double *const numbers[] = {
        &r->max_error, &r->rel_l2_error, &r->tolerance, &r->min_ms, &r->q1_ms, &r->median_ms, &r->q3_ms, &r->max_ms,
        &r->mean_ms, &r->stdev_ms, &r->ci95_rel, &r->flop, &r->min_bytes, &r->gflops, &r->effective_gbs,
        &r->metrics_wall_ms, &r->metrics_replay_ms, &r->metrics_overhead_ms, &r->registers_per_thread,
        &r->static_smem_bytes, &r->dynamic_smem_bytes, &r->threads_per_block, &r->theoretical_occupancy_pct,
        &r->shared_conflicts_exact, &r->global_excess_sectors, &r->source_wall_ms, &r->source_gpu_ms,
        &r->stall_samples, &r->stall_top_pct, &r->stall_wall_ms, &r->fp32_roof_pct, &r->tensor_flop,
        &r->tensor_tflops, &r->tensor_roof_pct, &r->first_finding_gain_pct,
    };
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; ++i)
        *numbers[i] = NAN;
    for (int i = 0; i < SUMMARY_HEADLINE_COLUMNS; ++i)
        r->headline[i] = NAN;
    r->variant = r->precision = r->layout = r->status = r->reference = r->stop_reason = "";
    r->metrics_kernel = r->stall_top_reason = r->other_gpu_work = r->tensor_type = "";
}

static void write_reals(struct csv *c, const double *values, int n)
{
    for (int i = 0; i < n; ++i)
        csv_real(c, values[i]);
}

static void write_check(struct csv *c, const struct summary_row *r)
{
    csv_text(c, r->variant);
    csv_text(c, r->precision);
    csv_text(c, r->layout);
    csv_int(c, product_shape_width(r->shape));
    csv_text(c, r->status);
    csv_text(c, r->reference);
    csv_uint(c, r->seed);
    const double errors[] = {r->max_error, r->rel_l2_error, r->tolerance};
    write_reals(c, errors, 3);
}

static void write_timing(struct csv *c, const struct summary_row *r)
{
    csv_int(c, r->samples);
    csv_text(c, r->stop_reason);
    const double times[] = {r->min_ms,   r->q1_ms,    r->median_ms, r->q3_ms,     r->max_ms,  r->mean_ms,
                            r->stdev_ms, r->ci95_rel, r->flop,      r->min_bytes, r->gflops, r->effective_gbs};
    write_reals(c, times, (int)(sizeof times / sizeof *times));
}

static void write_metrics(struct csv *c, const struct summary_row *r)
{
    csv_text(c, r->metrics_kernel);
    write_reals(c, r->headline, SUMMARY_HEADLINE_COLUMNS);
    const double cost[] = {r->metrics_wall_ms, r->metrics_replay_ms, r->metrics_overhead_ms};
    write_reals(c, cost, 3);
}

static void write_kernel(struct csv *c, const struct summary_row *r)
{
    const double facts[] = {r->registers_per_thread,      r->static_smem_bytes,      r->dynamic_smem_bytes,
                            r->threads_per_block,         r->theoretical_occupancy_pct,
                            r->shared_conflicts_exact,    r->global_excess_sectors,  r->source_wall_ms,
                            r->source_gpu_ms};
    write_reals(c, facts, (int)(sizeof facts / sizeof *facts));
    csv_text(c, r->limiter);
    csv_text(c, r->evidence);
}

static void write_stalls(struct csv *c, const struct summary_row *r)
{
    csv_real(c, r->stall_samples);
    csv_text(c, r->stall_top_reason);
    csv_real(c, r->stall_top_pct);
    csv_real(c, r->stall_wall_ms);
    csv_text(c, r->other_gpu_work);
}

int summary_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &summary_csv, e);
}

void summary_csv_row(struct csv *c, const struct summary_row *r)
{
    write_check(c, r);
    write_timing(c, r);
    write_metrics(c, r);
    write_kernel(c, r);
    write_stalls(c, r);
    csv_real(c, r->fp32_roof_pct);
    csv_text(c, r->tensor_type);
    const double tensor[] = {r->tensor_flop, r->tensor_tflops, r->tensor_roof_pct};
    write_reals(c, tensor, 3);
    csv_text(c, r->first_finding);
    csv_real(c, r->first_finding_gain_pct);
    csv_shape(c, r->shape);
    csv_end_row(c);
}

int samples_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &samples_csv, e);
}

void samples_csv_row(struct csv *c, const struct sample_row *r)
{
    csv_text(c, r->variant);
    csv_text(c, r->precision);
    csv_int(c, product_shape_width(r->shape));
    csv_int(c, r->sample);
    csv_real(c, r->time_ms);
    csv_shape(c, r->shape);
    csv_end_row(c);
}

int variants_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &variants_csv, e);
}

void variants_csv_row(struct csv *c, const struct variant_row *r)
{
    csv_text(c, r->variant);
    csv_text(c, r->precision);
    csv_text(c, r->layout);
    csv_uint(c, r->block_x);
    csv_uint(c, r->block_y);
    csv_uint(c, r->tile_x);
    csv_uint(c, r->tile_y);
    csv_int(c, r->ladder_step);
    csv_text(c, r->description);
    csv_int(c, r->tensor_ladder_step);
    csv_end_row(c);
}
