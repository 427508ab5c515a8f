#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ceilings/rates.h"
#include "profile_summary.h"

/* The derived metric each of the summary's metric columns shows, from SUMMARY_GLOBAL_LOAD_EFFICIENCY_PCT on. */
static const enum derived_metric_id headline_metric[] = {
    METRIC_GLOBAL_LOAD_EFFICIENCY, METRIC_SECTORS_PER_REQUEST_LD, METRIC_GLOBAL_STORE_EFFICIENCY,
    METRIC_SECTORS_PER_REQUEST_ST, METRIC_SHARED_CONFLICTS_HW,
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

/* The share of shared wavefronts that are bank conflicts: exact with the source group, else
 * diagnosis_shared_excess_bound. */
static double conflict_share_pct(const struct profile *p, const double *values, const struct derived_metric *derived,
                                 const struct exact_shared *exact)
{
    int sourced = exact && !isnan(exact->wavefronts);
    double excess = sourced ? exact->excess_wavefronts
                            : diagnosis_shared_excess_bound(derived[METRIC_SHARED_EXCESS_ESTIMATE].value,
                                                  derived[METRIC_SHARED_CONFLICTS_HW].value);
    double wavefronts = sourced ? exact->wavefronts
                                : metric_lookup(p->names, values, p->n_metrics, COLLECTED(SHARED_LD_WAVEFRONTS)) +
                                      metric_lookup(p->names, values, p->n_metrics, COLLECTED(SHARED_ST_WAVEFRONTS));
    return wavefronts == 0.0 ? 0.0 : 100.0 * excess / wavefronts; /* no shared access: no conflict */
}

/* A diagnosis input by its name: a derived metric's, else a collected metric's (NAN: neither was collected). */
static double input_value(const struct profile *p, const double *values, const struct derived_metric *derived,
                          const char *name)
{
    for (int i = 0; i < MAX_DERIVED; ++i)
        if (strcmp(derived[i].name, name) == 0)
            return derived[i].value;
    return metric_lookup(p->names, values, p->n_metrics, name);
}

/* The shared excess wavefronts of loads and of stores and all shared wavefronts (findings_shared_inputs). */
static void shared_inputs(const struct profile *p, const double *values, const struct derived_metric *derived,
                          const struct exact_shared *exact, const struct finding_lines *lines, double *inputs)
{
    const double estimate[2] = {derived[METRIC_SHARED_EXCESS_ESTIMATE_LD].value,
                                derived[METRIC_SHARED_EXCESS_ESTIMATE_ST].value};
    const double hardware[2] = {metric_lookup(p->names, values, p->n_metrics, COLLECTED(SHARED_LD_CONFLICTS_HW)),
                                metric_lookup(p->names, values, p->n_metrics, COLLECTED(SHARED_ST_CONFLICTS_HW))};
    double wavefronts = metric_lookup(p->names, values, p->n_metrics, COLLECTED(SHARED_LD_WAVEFRONTS)) +
                        metric_lookup(p->names, values, p->n_metrics, COLLECTED(SHARED_ST_WAVEFRONTS));
    findings_shared_inputs(lines, exact ? exact->wavefronts : NAN, estimate, hardware, wavefronts, inputs);
}

/* The launch's inputs: the kernel's resources and the blocks an SM holds by each (NAN where either is unknown). */
static void launch_inputs(const struct environment *env, const struct launch_facts *launch, double *inputs)
{
    struct sm_limits sm = {env_number(env, "sm_max_warps"), env_number(env, "sm_max_blocks"),
                           env_number(env, "sm_registers"), env_number(env, "sm_shared_memory_bytes"),
                           env_number(env, "block_reserved_shared_memory_bytes")};
    struct launch_facts unknown = {NAN, NAN, NAN};
    if (!launch)
        launch = &unknown;
    findings_launch_inputs(&sm, env_number(env, "sm_count"), launch->registers_per_thread, launch->shared_per_block,
                           launch->threads_per_block, inputs);
}

/* Every input of the diagnosis and the findings, by name, and the kernel's tensor type. */
static void diagnosis_inputs(const struct profile *p, int kernel, const struct exact_shared *exact,
                             const struct environment *env, const struct launch_facts *launch,
                             const struct finding_lines *lines, double inputs[DIAGNOSIS_INPUT_COUNT],
                             struct tensor_work *tensor)
{
    struct derived_metric derived[MAX_DERIVED];
    const double *values = p->kernels[kernel].values;
    metrics_derive(p->names, values, p->n_metrics, derived);
    for (int i = 0; i < DIAGNOSIS_INPUT_COUNT; ++i)
        inputs[i] = input_value(p, values, derived, diagnosis_input_name(i));
    inputs[IN_CONFLICT_SHARE] = conflict_share_pct(p, values, derived, exact);
    /* No global load (store) instruction (cp.async kernels): nothing is uncoalesced, whatever the efficiency reads. */
    if (inputs[IN_LD_REQUESTS] == 0.0)
        inputs[IN_LOAD_EFFICIENCY] = 100.0;
    if (inputs[IN_ST_REQUESTS] == 0.0)
        inputs[IN_STORE_EFFICIENCY] = 100.0;
    shared_inputs(p, values, derived, exact, lines, inputs);
    launch_inputs(env, launch, inputs);
    profile_tensor_work(p, kernel, env, tensor);
    inputs[IN_TENSOR_ROOF_PCT] = tensor->roof_pct;
}

void profile_diagnose(const struct profile *p, int kernel, const struct exact_shared *exact,
                      const struct environment *env, struct diagnosis *d)
{
    double inputs[DIAGNOSIS_INPUT_COUNT];
    struct tensor_work tensor;
    diagnosis_inputs(p, kernel, exact, env, NULL, NULL, inputs, &tensor);
    diagnose(inputs, tensor.type, d);
}

int profile_findings(const struct profile *p, int kernel, const struct exact_shared *exact,
                     const struct environment *env, const struct launch_facts *launch,
                     const struct finding_lines *lines, struct finding out[], int max)
{
    double inputs[DIAGNOSIS_INPUT_COUNT];
    struct tensor_work tensor;
    diagnosis_inputs(p, kernel, exact, env, launch, lines, inputs, &tensor);
    return diagnose_findings(inputs, tensor.type, lines, out, max);
}

void profile_write_findings(struct csv *c, const char *variant, const char *precision, struct product_shape shape,
                            const char *kernel, const struct finding *f, int n)
{
    for (int i = 0; i < n; ++i)
        findings_csv_row(c, &(struct finding_row){variant, precision, shape, kernel, i + 1, f[i].cause,
                                                  f[i].global ? "global" : "local", f[i].gain_pct, f[i].evidence,
                                                  f[i].where});
}

void profile_first_finding(const struct finding *f, int n, struct summary_row *row)
{
    _Static_assert(FINDING_CAUSE_LEN <= SUMMARY_FINDING_LEN, "the summary row holds a cause's name");
    if (n == 0)
        return;
    snprintf(row->first_finding, sizeof row->first_finding, "%s", f[0].cause);
    row->first_finding_gain_pct = f[0].gain_pct;
}
