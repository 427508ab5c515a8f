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

/* Not an input: the figure of the pipe the kernel's arithmetic runs on (arithmetic_pipe), which the evidence
 * names. */
#define ARITHMETIC_PIPE DIAGNOSIS_INPUT_COUNT

/* A figure of the evidence: an input and the phrase it reads in, with one number; the arithmetic pipe's phrase
 * takes the pipe's name first. */
struct figure {
    int input;
    const char *phrase;
};
#define PIPE_FIGURE {ARITHMETIC_PIPE, "%s %.0f %%"}

/*
 * The rules, first match wins. unit: the speed-of-light figure that must be the busiest of the six
 * (L1/shared, L2, DRAM, FMA pipe, FP64/tensor pipe, issue slots) and at least BUSY_PCT. refine: a further
 * condition, refine >= at_least (or <= at_most when at_most is set); refine < 0: none. The evidence joins the
 * phrases of the three figures in shown (joined holds three %s): figures only, so that two kernels with the same
 * limiter read apart.
 */
static const struct rule {
    const char *limiter;
    int unit, refine;
    double at_least, at_most;
    const char *joined;
    struct figure shown[3];
} rules[] = {
    {"bank conflicts", IN_SOL_L1, IN_CONFLICT_SHARE, 25.0, NAN, "%s; %s, %s",
     {{IN_CONFLICT_SHARE, "%.0f %% of shared wavefronts are bank conflicts"},
      {IN_SOL_L1, "L1/shared at %.0f %% of peak"},
      PIPE_FIGURE}},
    {"uncoalesced global loads", IN_SOL_L1, IN_LOAD_EFFICIENCY, NAN, 50.0, "%s %s; %s",
     {{IN_LOAD_EFFICIENCY, "global loads use %.1f %% of the bytes their sectors carry"},
      {IN_SECTORS_PER_REQUEST_LD, "(%.1f sectors per request)"},
      {IN_SOL_L1, "L1/shared at %.0f %% of peak"}}},
    {"L1/shared bandwidth", IN_SOL_L1, -1, NAN, NAN, "%s; %s, %s",
     {{IN_SOL_L1, "L1/shared at %.0f %% of peak"}, PIPE_FIGURE, {IN_SOL_DRAM, "DRAM %.0f %%"}}},
    {"DRAM bandwidth", IN_SOL_DRAM, -1, NAN, NAN, "%s; %s, %s",
     {{IN_SOL_DRAM, "DRAM at %.0f %% of peak"}, {IN_SOL_L2, "L2 %.0f %%"}, PIPE_FIGURE}},
    {"L2 bandwidth", IN_SOL_L2, -1, NAN, NAN, "%s; %s, %s",
     {{IN_SOL_L2, "L2 at %.0f %% of peak"}, {IN_SOL_DRAM, "DRAM %.0f %%"}, {IN_SOL_L1, "L1/shared %.0f %%"}}},
    {"FMA pipe", IN_FMA_PIPE, -1, NAN, NAN, "%s, %s, %s",
     {{IN_FMA_PIPE, "FMA pipe busy %.0f %% of cycles"},
      {IN_ISSUE_SLOTS, "issue slots %.0f %%"},
      {IN_SOL_L1, "L1/shared %.0f %%"}}},
    {"FP64/tensor pipe", IN_FP64_TENSOR_PIPE, -1, NAN, NAN, "%s, %s, %s",
     {{IN_FP64_TENSOR_PIPE, "FP64/tensor pipe busy %.0f %% of cycles"},
      {IN_ISSUE_SLOTS, "issue slots %.0f %%"},
      {IN_SOL_L1, "L1/shared %.0f %%"}}},
    {"instruction issue", IN_ISSUE_SLOTS, -1, NAN, NAN, "%s, %s, %s",
     {{IN_ISSUE_SLOTS, "issue slots %.0f %% used"}, PIPE_FIGURE, {IN_SOL_L1, "L1/shared %.0f %%"}}},
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

/* The pipe the kernel's arithmetic runs on: the FP64/tensor pipe where it executed more FP64 operations than FP32
 * ones (DFMA; cuBLAS's DGEMM, whose DMMA are not counted, still counts a few DMUL and no FP32), the FMA pipe where
 * FP32 ones are more; where neither was counted or collected, the busier of the two. */
static int arithmetic_pipe(const double *v)
{
    double fp32 = isnan(v[IN_FLOP_FP32]) ? 0 : v[IN_FLOP_FP32], fp64 = isnan(v[IN_FLOP_FP64]) ? 0 : v[IN_FLOP_FP64];
    if (fp64 != fp32)
        return fp64 > fp32 ? IN_FP64_TENSOR_PIPE : IN_FMA_PIPE;
    return v[IN_FP64_TENSOR_PIPE] > v[IN_FMA_PIPE] ? IN_FP64_TENSOR_PIPE : IN_FMA_PIPE;
}

static void put_figure(const struct figure *f, const double *v, char *out, size_t len)
{
    int pipe = arithmetic_pipe(v);
    if (f->input == ARITHMETIC_PIPE)
        snprintf(out, len, f->phrase, pipe == IN_FMA_PIPE ? "FMA pipe" : "FP64/tensor pipe", v[pipe]);
    else if (isnan(v[f->input])) /* the phrase's number would read "nan" */
        snprintf(out, len, "%s not collected", input_names[f->input]);
    else
        snprintf(out, len, f->phrase, v[f->input]);
}

static void put_evidence(const struct rule *r, const double *v, char *out, size_t len)
{
    char figure[3][96];
    for (int i = 0; i < 3; ++i)
        put_figure(&r->shown[i], v, figure[i], sizeof figure[i]);
    snprintf(out, len, r->joined, figure[0], figure[1], figure[2]);
}

void diagnose(const double values[DIAGNOSIS_INPUT_COUNT], struct diagnosis *out)
{
    int unit = busiest(values);
    memset(out, 0, sizeof *out);
    if (unit < 0) {
        snprintf(out->limiter, sizeof out->limiter, "not collected");
        snprintf(out->evidence, sizeof out->evidence,
                 "the sol metric group was not collected, or a speed-of-light figure had no value");
        return;
    }
    if (values[unit] >= BUSY_PCT)
        for (size_t i = 0; i < sizeof rules / sizeof rules[0]; ++i)
            if (matches(&rules[i], values, unit)) {
                snprintf(out->limiter, sizeof out->limiter, "%s", rules[i].limiter);
                put_evidence(&rules[i], values, out->evidence, sizeof out->evidence);
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
