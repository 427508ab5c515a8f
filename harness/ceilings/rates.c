#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/numbers.h"
#include "../results/environment_csv.h"
#include "rates.h"

#define CEILING_ROW(id, key, label, unit, tensor) {key, label, unit, tensor},
static const struct {
    const char *key, *label, *unit, *tensor_type;
} ceilings[] = {CEILINGS(CEILING_ROW)};
#undef CEILING_ROW

const char *ceiling_key(enum ceiling c)
{
    return ceilings[c].key;
}

const char *ceiling_label(enum ceiling c)
{
    return ceilings[c].label;
}

const char *ceiling_unit(enum ceiling c)
{
    return ceilings[c].unit;
}

bool ceiling_is_tensor(enum ceiling c)
{
    return ceilings[c].tensor_type != NULL;
}

int ceiling_for_tensor_type(const char *type)
{
    for (int c = 0; type && c < CEILING_COUNT; ++c)
        if (ceilings[c].tensor_type && strcmp(ceilings[c].tensor_type, type) == 0)
            return c;
    return -1;
}

struct ceiling_rates ceiling_rates_unknown(void)
{
    struct ceiling_rates r;
    for (int c = 0; c < CEILING_COUNT; ++c)
        r.value[c] = NAN;
    return r;
}

double ceiling_recorded(const struct environment *env, int c)
{
    double value;
    return c >= 0 && c < CEILING_COUNT && parse_real(env_value(env, ceilings[c].key), 0.0, HUGE_VAL, &value) == 0
               ? value
               : NAN;
}

double ceiling_share_pct(double rate, double ceiling)
{
    return isfinite(ceiling) && ceiling > 0 ? 100.0 * rate / ceiling : NAN;
}

/* Bytes per clock per SM of the L1/shared data stage: 32 banks of 4 bytes (Volta and later). */
#define L1_SHARED_BYTES_PER_CLOCK 128.0

/* FP32 and FP64 results per SM per clock (an FMA is two), by compute capability; FP64 without tensor cores. */
static const struct {
    const char *capability;
    double fp32, fp64;
} fma_per_sm[] = {
    {"7.0", 128, 64},  {"7.5", 128, 4},  {"8.0", 128, 64},  {"8.6", 256, 4},
    {"8.9", 256, 4},   {"9.0", 256, 128}, {"10.0", 256, 128}, {"12.0", 256, 4},
};

/* Dense tensor FLOP per SM per clock (a multiply-add is two; FP32 accumulation), by compute capability, in the
 * CEILING_TENSOR_* order. GH100: NVIDIA's H100 SXM figures, 989.4 (bf16, fp16), 494.7 (tf32) and 1978.9 (fp8)
 * TFLOP/s dense, are these x 132 SMs x 1.830 GHz. Only 9.0: the one capability whose tensor ceilings memscope
 * measures (wgmma, sm_90a), so that elsewhere a tensor ceiling not measured is no failure (ceiling_judge). */
_Static_assert(CEILING_TENSOR_FP8 == CEILING_COUNT - 1, "the tensor ceilings are the last rows of CEILINGS");
static const struct {
    const char *capability;
    double flop[CEILING_COUNT - CEILING_TENSOR_BF16];
} tensor_per_sm[] = {
    {"9.0", {4096, 4096, 2048, 8192}},
};

struct ceiling_rates ceiling_datasheet(const struct gpu_figures *g)
{
    struct ceiling_rates r = ceiling_rates_unknown();
    double sm_ghz = g->sm_count * g->sm_clock_mhz / 1000.0; /* SMs x GHz: NAN when either is unknown */
    for (size_t i = 0; g->compute_capability && i < sizeof fma_per_sm / sizeof fma_per_sm[0]; ++i)
        if (strcmp(fma_per_sm[i].capability, g->compute_capability) == 0) {
            r.value[CEILING_FP32] = fma_per_sm[i].fp32 * sm_ghz;
            r.value[CEILING_FP64] = fma_per_sm[i].fp64 * sm_ghz;
        }
    for (size_t i = 0; g->compute_capability && i < sizeof tensor_per_sm / sizeof tensor_per_sm[0]; ++i)
        if (strcmp(tensor_per_sm[i].capability, g->compute_capability) == 0)
            for (int c = CEILING_TENSOR_BF16; c < CEILING_COUNT; ++c)
                r.value[c] = tensor_per_sm[i].flop[c - CEILING_TENSOR_BF16] * sm_ghz;
    r.value[CEILING_DRAM] = 2.0 * g->memory_clock_mhz * 1e6 * g->memory_bus_width_bits / 8.0 / 1e9;
    r.value[CEILING_L1_SHARED] = L1_SHARED_BYTES_PER_CLOCK * sm_ghz;
    return r;
}

static bool known(double x)
{
    return isfinite(x) && x > 0;
}

static void judge_against_datasheet(struct ceiling_check *k, double datasheet)
{
    if (known(datasheet)) {
        snprintf(k->rule, sizeof k->rule, "within %.0f %% of the datasheet",
                 100.0 * (CEILING_PLAUSIBLE_HIGH - 1.0));
        k->expected = datasheet;
        k->lower = CEILING_PLAUSIBLE_LOW * datasheet;
        k->upper = CEILING_PLAUSIBLE_HIGH * datasheet;
        k->pass = known(k->measured) && k->measured >= k->lower && k->measured <= k->upper;
    } else if (ceiling_is_tensor(k->ceiling) && isnan(k->measured)) {
        /* No wgmma here (not compute capability 9.0, or a build without sm_90a): nothing to measure. */
        snprintf(k->rule, sizeof k->rule, "no datasheet, no tensor ceiling kernel: not measured");
        k->lower = NAN;
        k->upper = NAN;
        k->pass = true;
    } else {
        snprintf(k->rule, sizeof k->rule, "no datasheet: checked > 0");
        k->lower = 0.0;
        k->upper = INFINITY;
        k->pass = known(k->measured);
    }
}

void ceiling_judge(const struct ceiling_rates *measured, const struct ceiling_rates *datasheet,
                   struct ceiling_check out[CEILING_COUNT])
{
    for (int c = 0; c < CEILING_COUNT; ++c) {
        struct ceiling_check *k = &out[c];
        *k = (struct ceiling_check){.ceiling = (enum ceiling)c, .expected = NAN, .measured = measured->value[c]};
        if (c != CEILING_L2) {
            judge_against_datasheet(k, datasheet->value[c]);
            continue;
        }
        /* NVIDIA publishes no L2 bandwidth: the L2 must at least sit between the levels around it. */
        snprintf(k->rule, sizeof k->rule, "no datasheet: DRAM<L2<L1/shared");
        k->lower = measured->value[CEILING_DRAM];
        k->upper = measured->value[CEILING_L1_SHARED];
        k->pass = known(k->measured) && known(k->lower) && known(k->upper) && k->measured > k->lower &&
                  k->measured < k->upper;
    }
}

struct roofline_bound roofline_bound(const struct roofs *r, const double flop_per_byte[ROOF_LEVELS])
{
    struct roofline_bound b = {ROOF_NONE, NAN};
    for (int level = 0; level < ROOF_LEVELS; ++level) {
        double attainable = flop_per_byte[level] * r->gbs[level];
        if (known(r->gbs[level]) && isfinite(flop_per_byte[level]) && flop_per_byte[level] >= 0 &&
            (b.roof == ROOF_NONE || attainable < b.gflops))
            b = (struct roofline_bound){(enum roof)level, attainable};
    }
    if (known(r->gflops) && (b.roof == ROOF_NONE || r->gflops < b.gflops))
        b = (struct roofline_bound){ROOF_COMPUTE, r->gflops};
    return b;
}
