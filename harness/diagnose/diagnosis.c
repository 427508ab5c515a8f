#include <math.h>
#include <stdbool.h>
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

/* Not inputs: figures the evidence names that depend on the kernel, not on one input. ARITHMETIC_PIPE: the pipe the
 * kernel's arithmetic runs on (arithmetic_pipe), its phrase taking the pipe's name first; TENSOR_RATE: the tensor
 * type and tensor_gflops (in TFLOP/s); TENSOR_ROOF: tensor_roof_pct of the measured roof of that type. */
enum { ARITHMETIC_PIPE = DIAGNOSIS_INPUT_COUNT, TENSOR_RATE, TENSOR_ROOF };

/* A figure of the evidence: an input (or one of the above) and the phrase it reads in, with one number. */
struct figure {
    int input;
    const char *phrase;
};
#define PIPE_FIGURE {ARITHMETIC_PIPE, "%s %.0f %%"}

/*
 * The rules, first match wins. unit: the speed-of-light figure that must be the busiest of the units (L1/shared,
 * L2, DRAM, FMA pipe, FP64 pipe, tensor pipe, issue slots; a run before issue 39 has one FP64/tensor pipe instead
 * of the two) and at least BUSY_PCT. refine: a further condition, refine >= at_least (or <= at_most when at_most
 * is set); refine < 0: none. The evidence joins the phrases of the three figures in shown (joined holds three
 * %s): figures only, so that two kernels with the same limiter read apart.
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
    {"tensor pipe", IN_TENSOR_PIPE, -1, NAN, NAN, "%s, %s; %s",
     {{TENSOR_RATE, "%s tensor %.0f TFLOP/s"},
      {TENSOR_ROOF, "%.0f %% of the measured %s roof"},
      {IN_TENSOR_PIPE, "tensor pipe %.0f %% of cycles"}}},
    {"FP64 pipe", IN_FP64_PIPE, -1, NAN, NAN, "%s, %s, %s",
     {{IN_FP64_PIPE, "FP64 pipe busy %.0f %% of cycles"},
      {IN_ISSUE_SLOTS, "issue slots %.0f %%"},
      {IN_SOL_L1, "L1/shared %.0f %%"}}},
    {"FP64/tensor pipe", IN_FP64_TENSOR_PIPE, -1, NAN, NAN, "%s, %s, %s",
     {{IN_FP64_TENSOR_PIPE, "FP64/tensor pipe busy %.0f %% of cycles"},
      {IN_ISSUE_SLOTS, "issue slots %.0f %%"},
      {IN_SOL_L1, "L1/shared %.0f %%"}}},
    {"instruction issue", IN_ISSUE_SLOTS, -1, NAN, NAN, "%s, %s, %s",
     {{IN_ISSUE_SLOTS, "issue slots %.0f %% used"}, PIPE_FIGURE, {IN_SOL_L1, "L1/shared %.0f %%"}}},
};

/* The units that can limit a kernel: the FP64 and tensor pipes apart, or, in a run that measured them only
 * together (before issue 39), the one FP64/tensor pipe. */
#define N_UNITS 7
static const int units[N_UNITS] = {IN_SOL_L1,   IN_SOL_L2,      IN_SOL_DRAM,   IN_FMA_PIPE,
                                   IN_FP64_PIPE, IN_TENSOR_PIPE, IN_ISSUE_SLOTS};
static const int units_before_the_split[N_UNITS - 1] = {IN_SOL_L1,   IN_SOL_L2,           IN_SOL_DRAM,
                                                        IN_FMA_PIPE, IN_FP64_TENSOR_PIPE, IN_ISSUE_SLOTS};

static bool before_the_split(const double *v)
{
    return isnan(v[IN_FP64_PIPE]) && isnan(v[IN_TENSOR_PIPE]) && !isnan(v[IN_FP64_TENSOR_PIPE]);
}

/* A busier L2 can be the DRAM's shadow: an L2 that mostly misses (hit rate at most L2_MOSTLY_MISSES) carries the
 * DRAM's bytes, so a DRAM within SHADOW of it is the unit a change must relieve. How far the DRAM's share sits
 * below the L2's for the same bytes is the machine's: a faster DRAM beside the same L2 shows a smaller share, so
 * SHADOW lies below the streams of both GH100 parts (docs/metrics.md gives their ratios); an L2-resident stream
 * (hit rate 98 %) stays the L2's. */
#define SHADOW 0.70
#define L2_MOSTLY_MISSES 60.0

static int unit_behind(const double *v, int best)
{
    if (best == IN_SOL_L2 && v[IN_L2_HIT_RATE] <= L2_MOSTLY_MISSES && v[IN_SOL_DRAM] >= SHADOW * v[IN_SOL_L2])
        return IN_SOL_DRAM;
    return best;
}

/* The busiest unit (the DRAM where the L2 is its shadow), or -1 when a figure is missing. */
static int busiest(const double *v)
{
    bool old = before_the_split(v);
    const int *unit = old ? units_before_the_split : units;
    size_t n = old ? N_UNITS - 1 : N_UNITS;
    int best = -1;
    for (size_t i = 0; i < n; ++i) {
        if (isnan(v[unit[i]]))
            return -1;
        if (best < 0 || v[unit[i]] > v[best])
            best = unit[i];
    }
    return unit_behind(v, best);
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

static const struct {
    int input;
    const char *name;
} pipe_names[] = {{IN_FMA_PIPE, "FMA pipe"},
                  {IN_FP64_PIPE, "FP64 pipe"},
                  {IN_TENSOR_PIPE, "tensor pipe"},
                  {IN_FP64_TENSOR_PIPE, "FP64/tensor pipe"}};

static const char *pipe_name(int pipe)
{
    for (size_t i = 0; i < sizeof pipe_names / sizeof pipe_names[0]; ++i)
        if (pipe_names[i].input == pipe)
            return pipe_names[i].name;
    return "?";
}

/* The pipe the kernel's arithmetic runs on: the tensor pipe where it ran tensor operations (a tensor type); the
 * FP64 pipe where it executed more FP64 operations than FP32 ones, the FMA pipe where FP32 ones are more; where
 * neither was counted or collected, the busier of the two. A run before the split has the FP64/tensor pipe for
 * both (cuBLAS's DGEMM, whose DMMA it did not count, still counts a few DMUL and no FP32). */
static int arithmetic_pipe(const double *v, const char *tensor_type)
{
    bool old = before_the_split(v);
    int fp64_pipe = old ? IN_FP64_TENSOR_PIPE : IN_FP64_PIPE;
    double fp32 = isnan(v[IN_FLOP_FP32]) ? 0 : v[IN_FLOP_FP32], fp64 = isnan(v[IN_FLOP_FP64]) ? 0 : v[IN_FLOP_FP64];
    if (!old && tensor_type && *tensor_type)
        return IN_TENSOR_PIPE;
    if (fp64 != fp32)
        return fp64 > fp32 ? fp64_pipe : IN_FMA_PIPE;
    return v[fp64_pipe] > v[IN_FMA_PIPE] ? fp64_pipe : IN_FMA_PIPE;
}

/* The tensor figures: the type's name with the TFLOP/s, or the share of its measured roof; never a share without a
 * roof of that type (the run measured none: said so). Without a type both figures are one fact, said once. */
static void put_tensor_figure(const struct figure *f, const double *v, const char *type, char *out, size_t len)
{
    if ((!type || !*type) && f->input == TENSOR_RATE)
        snprintf(out, len, "no tensor type (tensor operations not collected)");
    else if (!type || !*type)
        snprintf(out, len, "so no share of a roof");
    else if (f->input == TENSOR_RATE && isnan(v[IN_TENSOR_GFLOPS]))
        snprintf(out, len, "%s tensor, %s not collected", type, input_names[IN_TENSOR_GFLOPS]);
    else if (f->input == TENSOR_RATE)
        snprintf(out, len, f->phrase, type, v[IN_TENSOR_GFLOPS] / 1000.0);
    else if (isnan(v[IN_TENSOR_ROOF_PCT]))
        snprintf(out, len, "no measured %s roof", type);
    else
        snprintf(out, len, f->phrase, v[IN_TENSOR_ROOF_PCT], type);
}

/* A unit's figure is never NAN here: busiest() named a limiter only with every unit's. */
static void put_figure(const struct figure *f, const double *v, const char *tensor_type, char *out, size_t len)
{
    int pipe = arithmetic_pipe(v, tensor_type);
    if (f->input == ARITHMETIC_PIPE)
        snprintf(out, len, f->phrase, pipe_name(pipe), v[pipe]);
    else if (f->input == TENSOR_RATE || f->input == TENSOR_ROOF)
        put_tensor_figure(f, v, tensor_type, out, len);
    else if (isnan(v[f->input])) /* the phrase's number would read "nan" */
        snprintf(out, len, "%s not collected", input_names[f->input]);
    else
        snprintf(out, len, f->phrase, v[f->input]);
}

static void put_evidence(const struct rule *r, const double *v, const char *tensor_type, char *out, size_t len)
{
    char figure[3][96];
    for (int i = 0; i < 3; ++i)
        put_figure(&r->shown[i], v, tensor_type, figure[i], sizeof figure[i]);
    snprintf(out, len, r->joined, figure[0], figure[1], figure[2]);
}

/* Every figure given as a share of a unit's peak: the limiter's candidates, and the SM and memory summaries. */
static const int peak_shares[] = {IN_SOL_L1,      IN_SOL_L2,           IN_SOL_DRAM,    IN_FMA_PIPE, IN_FP64_PIPE,
                                  IN_TENSOR_PIPE, IN_FP64_TENSOR_PIPE, IN_ISSUE_SLOTS, IN_SOL_SM,   IN_SOL_MEMORY,
                                  IN_XU_PIPE};
static const char *const peak_share_units[] = {"L1/shared", "L2",          "DRAM",   "the FMA pipe",
                                               "the FP64 pipe", "the tensor pipe", "the FP64/tensor pipe",
                                               "the issue slots", "the SM", "memory", "the XU pipe"};
_Static_assert(sizeof peak_shares / sizeof peak_shares[0] == sizeof peak_share_units / sizeof peak_share_units[0],
               "a unit's name per figure");

int diagnosis_steady_state(const double values[DIAGNOSIS_INPUT_COUNT], char *why, size_t len)
{
    double ms = values[IN_DURATION_MS];
    if (ms < DIAGNOSIS_STEADY_STATE_MS) {
        snprintf(why, len, "the kernel ran %.1f us, under the %.0f us a kernel needs to reach a steady state: its "
                 "units' figures average a ramp, not a rate, and are withheld", 1000.0 * ms,
                 1000.0 * DIAGNOSIS_STEADY_STATE_MS);
        return 0;
    }
    for (size_t i = 0; i < sizeof peak_shares / sizeof peak_shares[0]; ++i)
        if (values[peak_shares[i]] > 100.0) {
            snprintf(why, len, "%s read above its peak, which no steady state can: the kernel's units' figures "
                     "average a ramp, not a rate, and are withheld", peak_share_units[i]);
            return 0;
        }
    return 1;
}

void diagnose(const double values[DIAGNOSIS_INPUT_COUNT], const char *tensor_type, struct diagnosis *out)
{
    int unit = busiest(values);
    memset(out, 0, sizeof *out);
    out->unit = unit < 0 ? DIAGNOSIS_NOT_COLLECTED : DIAGNOSIS_LATENCY;
    if (unit < 0) {
        snprintf(out->limiter, sizeof out->limiter, "not collected");
        snprintf(out->evidence, sizeof out->evidence,
                 "the sol metric group was not collected, or a speed-of-light figure had no value");
        return;
    }
    if (!diagnosis_steady_state(values, out->evidence, sizeof out->evidence)) {
        out->unit = DIAGNOSIS_NO_STEADY_STATE;
        snprintf(out->limiter, sizeof out->limiter, "no steady state");
        return;
    }
    if (values[unit] >= BUSY_PCT)
        for (size_t i = 0; i < sizeof rules / sizeof rules[0]; ++i)
            if (matches(&rules[i], values, unit)) {
                snprintf(out->limiter, sizeof out->limiter, "%s", rules[i].limiter);
                out->unit = unit;
                put_evidence(&rules[i], values, tensor_type, out->evidence, sizeof out->evidence);
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

void diagnosis_add_stall(struct diagnosis *d, const char *reason, double pct, double gmma_pct)
{
    size_t used = strlen(d->evidence);
    if (!reason || !*reason || isnan(pct) || used >= sizeof d->evidence)
        return;
    bool gmma_top = strcmp(reason, DIAGNOSIS_GMMA_STALL) == 0;
    used += (size_t)snprintf(d->evidence + used, sizeof d->evidence - used, "; top stall reason %s (%.0f %% of samples%s)",
                             reason, pct, gmma_top ? ": warps wait for their wgmma's operands" : "");
    if (!gmma_top && gmma_pct > 0 && used < sizeof d->evidence)
        snprintf(d->evidence + used, sizeof d->evidence - used, "; warps wait for their wgmma's operands in %.0f %% of "
                 "samples (" DIAGNOSIS_GMMA_STALL ")", gmma_pct);
}

double diagnosis_shared_excess_bound(double estimate, double hardware)
{
    if (isnan(estimate))
        return NAN;
    return fmax(0.0, isnan(hardware) ? estimate : fmin(estimate, hardware));
}
