#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diagnosis.h"

/* A unit at or above this share of its peak is a candidate limiter (Nsight Compute's SOL rules use 60 % too). */
#define BUSY_PCT 60.0

#define DIAGNOSIS_NAME(id, name) name,
static const char *const input_names[] = {DIAGNOSIS_INPUTS(DIAGNOSIS_NAME)};
#undef DIAGNOSIS_NAME

const char *diagnosis_input_name(enum diagnosis_input id)
{
    return input_names[id];
}

/*
 * The rules, first match wins. unit: the speed-of-light figure that must be the busiest of the six
 * (L1/shared, L2, DRAM, FMA pipe, FP64/tensor pipe, issue slots) and at least BUSY_PCT. refine: a further
 * condition, refine >= at_least (or <= at_most when at_most is set); refine < 0: none. The evidence is printed
 * with the three inputs named in shown: figures only, so that two kernels with the same limiter read apart.
 */
static const struct rule {
    const char *limiter;
    int unit, refine;
    double at_least, at_most;
    const char *evidence;
    int shown[3];
} rules[] = {
    {"bank conflicts", IN_SOL_L1, IN_CONFLICT_SHARE, 25.0, NAN,
     "%.0f %% of shared wavefronts are bank conflicts; L1/shared at %.0f %% of peak, FMA pipe %.0f %%",
     {IN_CONFLICT_SHARE, IN_SOL_L1, IN_FMA_PIPE}},
    {"uncoalesced global loads", IN_SOL_L1, IN_LOAD_EFFICIENCY, NAN, 50.0,
     "global loads use %.1f %% of the bytes their sectors carry (%.1f sectors per request); L1 at %.0f %% of peak",
     {IN_LOAD_EFFICIENCY, IN_SECTORS_PER_REQUEST_LD, IN_SOL_L1}},
    {"L1/shared bandwidth", IN_SOL_L1, -1, NAN, NAN, "L1/shared at %.0f %% of peak; FMA pipe %.0f %%, DRAM %.0f %%",
     {IN_SOL_L1, IN_FMA_PIPE, IN_SOL_DRAM}},
    {"DRAM bandwidth", IN_SOL_DRAM, -1, NAN, NAN, "DRAM at %.0f %% of peak; L2 %.0f %%, FMA pipe %.0f %%",
     {IN_SOL_DRAM, IN_SOL_L2, IN_FMA_PIPE}},
    {"L2 bandwidth", IN_SOL_L2, -1, NAN, NAN, "L2 at %.0f %% of peak; DRAM %.0f %%, L1/shared %.0f %%",
     {IN_SOL_L2, IN_SOL_DRAM, IN_SOL_L1}},
    {"FMA pipe", IN_FMA_PIPE, -1, NAN, NAN, "FMA pipe busy %.0f %% of cycles, issue slots %.0f %%, L1/shared %.0f %%",
     {IN_FMA_PIPE, IN_ISSUE_SLOTS, IN_SOL_L1}},
    {"FP64/tensor pipe", IN_FP64_TENSOR_PIPE, -1, NAN, NAN,
     "FP64/tensor pipe busy %.0f %% of cycles, issue slots %.0f %%, L1/shared %.0f %%",
     {IN_FP64_TENSOR_PIPE, IN_ISSUE_SLOTS, IN_SOL_L1}},
    {"instruction issue", IN_ISSUE_SLOTS, -1, NAN, NAN, "issue slots %.0f %% used, FMA pipe %.0f %%, L1/shared %.0f %%",
     {IN_ISSUE_SLOTS, IN_FMA_PIPE, IN_SOL_L1}},
};

static const int units[] = {IN_SOL_L1, IN_SOL_L2, IN_SOL_DRAM, IN_FMA_PIPE, IN_FP64_TENSOR_PIPE, IN_ISSUE_SLOTS};
#define N_UNITS (sizeof units / sizeof units[0])

/* The busiest unit, or -1 when a figure is missing. */
static int busiest(const double *v)
{
    int best = -1;
    for (size_t i = 0; i < N_UNITS; ++i) {
        if (isnan(v[units[i]]))
            return -1;
        if (best < 0 || v[units[i]] > v[best])
            best = units[i];
    }
    return best;
}

static int matches(const struct rule *r, const double *v, int unit)
{
    if (r->unit != unit)
        return 0;
    if (r->refine < 0)
        return 1;
    return isnan(r->at_most) ? v[r->refine] >= r->at_least : v[r->refine] <= r->at_most;
}

/* The refinements of the unit's rules before rule `last` that could not be judged: their input was not collected. */
static void note_unjudged(const double *v, int unit, size_t last, char *evidence, size_t len)
{
    for (size_t i = 0; i < last; ++i) {
        const struct rule *r = &rules[i];
        size_t used = strlen(evidence);
        if (r->unit == unit && r->refine >= 0 && isnan(v[r->refine]) && used < len)
            snprintf(evidence + used, len - used, "; %s not judged (%s not collected)", r->limiter,
                     input_names[r->refine]);
    }
}

void diagnose(const double values[DIAGNOSIS_INPUT_COUNT], struct diagnosis *out)
{
    int unit = busiest(values);
    memset(out, 0, sizeof *out);
    if (unit < 0) {
        snprintf(out->limiter, sizeof out->limiter, "not collected");
        snprintf(out->evidence, sizeof out->evidence, "the sol metric group was not collected");
        return;
    }
    if (values[unit] >= BUSY_PCT)
        for (size_t i = 0; i < sizeof rules / sizeof rules[0]; ++i)
            if (matches(&rules[i], values, unit)) {
                const int *s = rules[i].shown;
                snprintf(out->limiter, sizeof out->limiter, "%s", rules[i].limiter);
                snprintf(out->evidence, sizeof out->evidence, rules[i].evidence, values[s[0]], values[s[1]],
                         values[s[2]]);
                note_unjudged(values, unit, i, out->evidence, sizeof out->evidence);
                return;
            }
    snprintf(out->limiter, sizeof out->limiter, "latency");
    if (isnan(values[IN_OCCUPANCY]))
        snprintf(out->evidence, sizeof out->evidence,
                 "no unit at %.0f %% of its peak (busiest %.0f %%); achieved occupancy not collected", BUSY_PCT,
                 values[unit]);
    else
        snprintf(out->evidence, sizeof out->evidence,
                 "no unit at %.0f %% of its peak (busiest %.0f %%); achieved occupancy %.0f %%", BUSY_PCT,
                 values[unit], values[IN_OCCUPANCY]);
}

void diagnosis_add_stall(struct diagnosis *d, const char *reason, double pct)
{
    size_t used = strlen(d->evidence);
    if (reason && *reason && !isnan(pct) && used < sizeof d->evidence)
        snprintf(d->evidence + used, sizeof d->evidence - used, "; top stall reason %s (%.0f %% of samples)", reason,
                 pct);
}
