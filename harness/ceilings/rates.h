/*
 * A GPU's ceilings: the bandwidth of each memory level, the FP32 and FP64
 * arithmetic rates and the dense tensor-core rate per source type (bf16, fp16,
 * tf32, fp8 e4m3, FP32 accumulation), as memscope measured them (harness/ceilings/measure.c,
 * recorded in environment.csv) or as the datasheet gives them, and the
 * judgement of the one against the other; and the roofline bound they put on
 * a kernel. Host-only and pure: the report draws its roofs with these figures
 * and computes each kernel's bound, --validate judges the measured ones.
 */
#ifndef MEMSCOPE_CEILING_RATES_H
#define MEMSCOPE_CEILING_RATES_H

#include <stdbool.h>

/* X(ID, environment key, label, unit, tensor type: summary.csv's tensor_type name, NULL for the others) */
#define CEILINGS(X)                                                                                                   \
    X(DRAM, "ceiling_dram_gbs", "DRAM", "GB/s", NULL)                                                                 \
    X(L2, "ceiling_l2_gbs", "L2", "GB/s", NULL)                                                                       \
    X(L1_SHARED, "ceiling_l1_shared_gbs", "L1/shared", "GB/s", NULL)                                                  \
    X(FP32, "ceiling_fp32_gflops", "FP32", "GFLOP/s", NULL)                                                           \
    X(FP64, "ceiling_fp64_gflops", "FP64", "GFLOP/s", NULL)                                                           \
    X(TENSOR_BF16, "ceiling_tensor_bf16_gflops", "bf16 tensor", "GFLOP/s", "bf16")                                    \
    X(TENSOR_FP16, "ceiling_tensor_fp16_gflops", "fp16 tensor", "GFLOP/s", "fp16")                                    \
    X(TENSOR_TF32, "ceiling_tensor_tf32_gflops", "tf32 tensor", "GFLOP/s", "tf32")                                    \
    X(TENSOR_FP8, "ceiling_tensor_fp8_gflops", "fp8 tensor", "GFLOP/s", "fp8")

#define CEILING_ID(id, key, label, unit, tensor) CEILING_##id,
enum ceiling { CEILINGS(CEILING_ID) CEILING_COUNT };
#undef CEILING_ID

/* One figure per ceiling, in GB/s or GFLOP/s (10^9); NAN where unknown. */
struct ceiling_rates {
    double value[CEILING_COUNT];
};

const char *ceiling_key(enum ceiling c);   /* its environment.csv key: "ceiling_dram_gbs" */
const char *ceiling_label(enum ceiling c); /* "DRAM", "L2", "L1/shared", "FP32", "FP64", "bf16 tensor", ... */
const char *ceiling_unit(enum ceiling c);  /* "GB/s" or "GFLOP/s" */
struct ceiling_rates ceiling_rates_unknown(void);

struct environment;
/* Ceiling c (-1: none) as a run or a profile recorded it in environment.csv, in its unit; NAN where it has none. */
double ceiling_recorded(const struct environment *env, int c);

/* Whether c is a tensor-core ceiling (CEILING_TENSOR_*). */
bool ceiling_is_tensor(enum ceiling c);

/* The tensor ceiling of a source type as summary.csv's tensor_type names it: "bf16", "fp16", "tf32", "fp8"; -1 for
 * a type memscope measures no roof of ("int8", "fp64"), an empty or unknown name, or NULL. */
int ceiling_for_tensor_type(const char *type);

/* A rate as a share of its ceiling, in %: summary.csv's fp32_roof_pct and the ladder page's "% FP32 roof" (GFLOP/s
 * over the run's measured FP32 ceiling). NAN when either is unknown (NAN) or the ceiling is not positive: a run
 * that measured no ceiling has no share of it. */
double ceiling_share_pct(double rate, double ceiling);

/* What the datasheet figures derive from: environment.csv's compute_capability, sm_count, sm_clock_max_mhz,
 * memory_clock_max_mhz and memory_bus_width_bits (NAN, or NULL, where unknown). */
struct gpu_figures {
    const char *compute_capability;
    double sm_count, sm_clock_mhz, memory_clock_mhz, memory_bus_width_bits;
};

/* The datasheet figures: FP32 and FP64 results per SM per clock by compute capability (an FMA counts two) x SMs
 * x SM clock; the dense tensor FLOP per SM per clock of each type the same way (compute capability 9.0 only: the
 * one whose tensor ceilings memscope measures; NVIDIA's own tensor figures use a lower clock than the maximum this
 * multiplies by, see harness/ceilings/README.md); DRAM two transfers per memory clock (the clock the driver reports for HBM) x the bus width;
 * L1/shared 128 bytes per clock per SM (32 banks of 4 bytes) x SMs x SM clock; L2 unknown: NVIDIA publishes no
 * L2 bandwidth. NAN where the GPU does not give what a figure needs. */
struct ceiling_rates ceiling_datasheet(const struct gpu_figures *g);

/* A measured ceiling is plausible within these fractions of its datasheet figure. */
#define CEILING_PLAUSIBLE_LOW 0.75
#define CEILING_PLAUSIBLE_HIGH 1.25

/* One ceiling judged: validate.csv's parameter (the rule), expected (NAN without a datasheet figure), the
 * range the measured figure must lie in, and the verdict. */
struct ceiling_check {
    enum ceiling ceiling;
    char rule[96];
    double expected, lower, upper, measured;
    bool pass;
};

/* Each ceiling in enum order into out: within CEILING_PLAUSIBLE_LOW..HIGH of its datasheet figure; the L2, which
 * has none, strictly between the measured DRAM and L1/shared ceilings; a figure without a datasheet value (a
 * GPU the table does not know) only has to have been measured (finite and positive). A ceiling not measured
 * (NAN) fails, but for a tensor ceiling on a GPU without its datasheet figure: memscope measures tensor ceilings
 * with wgmma, on compute capability 9.0 only, so elsewhere "not measured" is the expected answer. */
void ceiling_judge(const struct ceiling_rates *measured, const struct ceiling_rates *datasheet,
                   struct ceiling_check out[CEILING_COUNT]);

/* The roofline: a kernel at given arithmetic intensities (FLOP per byte at each memory level) can reach at most
 * intensity x bandwidth at every level, and the arithmetic rate of its precision. Its bound is the roof that
 * gives the lowest of these. The memory levels first (their index is the level), then the compute roof. */
enum roof { ROOF_L1_SHARED, ROOF_L2, ROOF_DRAM, ROOF_COMPUTE, ROOF_NONE = -1 };
#define ROOF_LEVELS 3

/* The roofs one kernel is held to: a bandwidth per level (GB/s) and the arithmetic rate of its precision or of
 * its tensor type (GFLOP/s); NAN where unknown (no measured ceiling and no datasheet figure). */
struct roofs {
    double gbs[ROOF_LEVELS];
    double gflops;
};

struct roofline_bound {
    enum roof roof; /* ROOF_NONE: no roof known at the kernel's intensities */
    double gflops;  /* the attainable GFLOP/s under that roof */
};

/* The lowest attainable GFLOP/s and its roof. A level whose bandwidth or intensity is unknown (NAN) or whose
 * intensity is infinite (no traffic) holds the kernel to nothing; on a tie the first roof in enum order wins. */
struct roofline_bound roofline_bound(const struct roofs *r, const double flop_per_byte[ROOF_LEVELS]);

#endif
