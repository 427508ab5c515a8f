#include <math.h>

#include "../ceilings/rates.h"
#include "profile_summary.h"

/* The derived metric each of the summary's metric columns shows, from SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT on. */
static const enum derived_metric_id headline_metric[] = {
    METRIC_GLOBAL_LOAD_EFFICIENCY, METRIC_SECTORS_PER_REQUEST_LD, METRIC_SHARED_CONFLICTS_HW,
    METRIC_SHARED_EXCESS_ESTIMATE, METRIC_DRAM_GBS, METRIC_DRAM_PCT_OF_PEAK,
    METRIC_ACHIEVED_GFLOPS, METRIC_ACHIEVED_OCCUPANCY, METRIC_SOL_SM_PCT, METRIC_SOL_MEMORY_PCT,
    METRIC_SOL_L1_PCT, METRIC_SOL_L2_PCT, METRIC_SOL_DRAM_PCT, METRIC_FMA_PIPE_PCT, METRIC_ISSUE_SLOTS_PCT,
    METRIC_TENSOR_PIPE_PCT, METRIC_FP64_PIPE_PCT,
};
_Static_assert(sizeof headline_metric / sizeof headline_metric[0] == SUMMARY_HEADLINE_COLUMNS,
               "one derived metric per summary metric column");

void profile_headline(const struct profile *p, int kernel, double headline[SUMMARY_HEADLINE_COLUMNS])
{
    struct derived_metric derived[MAX_DERIVED];
    metrics_derive(p->names, p->kernels[kernel].values, p->n_metrics, derived);
    for (int i = 0; i < SUMMARY_HEADLINE_COLUMNS; ++i)
        headline[i] = derived[headline_metric[i]].value;
}

void profile_tensor_work(const struct profile *p, int kernel, const struct environment *env, struct tensor_work *out)
{
    struct derived_metric derived[MAX_DERIVED];
    metrics_derive(p->names, p->kernels[kernel].values, p->n_metrics, derived);
    out->type = metrics_tensor_type(derived);
    out->flop = derived[METRIC_FLOP_TENSOR].value;
    out->tflops = derived[METRIC_TENSOR_GFLOPS].value / 1000.0;
    out->roof_pct = env && *out->type ? ceiling_share_pct(1000.0 * out->tflops,
                                                          ceiling_recorded(env, ceiling_for_tensor_type(out->type)))
                                      : NAN;
}

/* The share of shared wavefronts that are bank conflicts: exact with the source group, else the kernel-total
 * estimate (right for 32-bit accesses, the lessons'). */
static double conflict_share_pct(const struct profile *p, const double *values, const struct derived_metric *derived,
                                 const struct exact_shared *exact)
{
    int sourced = exact && !isnan(exact->wavefronts);
    double estimate = derived[METRIC_SHARED_EXCESS_ESTIMATE].value; /* NAN without its inputs: not judged, not 0 */
    double excess = sourced ? exact->excess_wavefronts : isnan(estimate) ? NAN : fmax(0.0, estimate);
    double wavefronts = sourced ? exact->wavefronts
                                : metric_lookup(p->names, values, p->n_metrics, COLLECTED(SHARED_LD_WAVEFRONTS)) +
                                      metric_lookup(p->names, values, p->n_metrics, COLLECTED(SHARED_ST_WAVEFRONTS));
    return wavefronts == 0.0 ? 0.0 : 100.0 * excess / wavefronts; /* no shared access: no conflict */
}

/* A diagnosis input no derived metric gives: NAN (a run before the tensor and FP64 pipes were measured apart had
 * fp64_tensor_pipe_pct; the tensor work's roof share is the environment's). */
#define NOT_DERIVED (-1)

void profile_diagnose(const struct profile *p, int kernel, const struct exact_shared *exact,
                      const struct environment *env, struct diagnosis *d)
{
    static const int from[DIAGNOSIS_INPUT_COUNT] = {
        [IN_SOL_L1] = METRIC_SOL_L1_PCT,       [IN_SOL_L2] = METRIC_SOL_L2_PCT,
        [IN_SOL_DRAM] = METRIC_SOL_DRAM_PCT,   [IN_FMA_PIPE] = METRIC_FMA_PIPE_PCT,
        [IN_ISSUE_SLOTS] = METRIC_ISSUE_SLOTS_PCT, [IN_SOL_SM] = METRIC_SOL_SM_PCT,
        [IN_SOL_MEMORY] = METRIC_SOL_MEMORY_PCT, [IN_OCCUPANCY] = METRIC_ACHIEVED_OCCUPANCY,
        [IN_SECTORS_PER_REQUEST_LD] = METRIC_SECTORS_PER_REQUEST_LD, [IN_FP64_TENSOR_PIPE] = NOT_DERIVED,
        [IN_LOAD_EFFICIENCY] = METRIC_GLOBAL_LOAD_EFFICIENCY, [IN_FLOP_FP32] = METRIC_FLOP_FP32,
        [IN_FLOP_FP64] = METRIC_FLOP_FP64, [IN_FP64_PIPE] = METRIC_FP64_PIPE_PCT, [IN_TENSOR_PIPE] = METRIC_TENSOR_PIPE_PCT,
        [IN_TENSOR_GFLOPS] = METRIC_TENSOR_GFLOPS, [IN_TENSOR_ROOF_PCT] = NOT_DERIVED};
    struct derived_metric derived[MAX_DERIVED];
    double inputs[DIAGNOSIS_INPUT_COUNT];
    struct tensor_work tensor;
    const double *values = p->kernels[kernel].values;
    metrics_derive(p->names, values, p->n_metrics, derived);
    for (int i = 0; i < DIAGNOSIS_INPUT_COUNT; ++i)
        inputs[i] = i == IN_CONFLICT_SHARE  ? conflict_share_pct(p, values, derived, exact)
                    : from[i] == NOT_DERIVED ? NAN
                                             : derived[from[i]].value;
    /* No global load instruction (cp.async kernels): nothing is uncoalesced, whatever the efficiency reads. */
    if (metric_lookup(p->names, values, p->n_metrics, COLLECTED(GLOBAL_LD_REQUESTS)) == 0.0)
        inputs[IN_LOAD_EFFICIENCY] = 100.0;
    profile_tensor_work(p, kernel, env, &tensor);
    inputs[IN_TENSOR_ROOF_PCT] = tensor.roof_pct;
    diagnose(inputs, tensor.type, d);
}
