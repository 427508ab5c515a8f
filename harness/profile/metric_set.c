#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "metric_catalog.h"
#include "metric_set.h"

static int add_metric(struct metric_set *s, const char *name, struct error *e)
{
    for (int i = 0; i < s->n; ++i)
        if (strcmp(s->names[i], name) == 0)
            return 0;
    if (s->n == MAX_METRICS)
        return error_set(e, EXIT_USAGE, "more than %d metrics", MAX_METRICS);
    if (strlen(name) >= METRIC_NAME_LEN || name[0] == '\0')
        return error_set(e, EXIT_USAGE, "--metrics: '%s' is not a metric name", name);
    strcpy(s->names[s->n++], name);
    return 0;
}

static int add_group(struct metric_set *s, const char *name, struct error *e)
{
    bool all = strcmp(name, "all") == 0, known = all || strcmp(name, "none") == 0;
    int n_groups;
    const struct metric_group *groups = metric_groups(&n_groups);
    for (int g = 0; g < n_groups; ++g) {
        if (!all && strcmp(name, groups[g].name) != 0)
            continue;
        known = true;
        s->source = s->source || groups[g].bit == GROUP_SOURCE;
        s->stalls = s->stalls || groups[g].bit == GROUP_STALLS;
        s->roofline = s->roofline || groups[g].bit == GROUP_ROOFLINE;
        const char *members[COLLECTED_METRIC_COUNT];
        int n = metric_group_members(groups[g].bit, members, COLLECTED_METRIC_COUNT);
        for (int m = 0; m < n; ++m)
            if (add_metric(s, members[m], e))
                return e->code;
    }
    if (!known) {
        char names[256] = "";
        for (int g = 0; g < n_groups; ++g)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s, ", groups[g].name);
        return error_set(e, EXIT_USAGE, "--metric-groups: unknown group '%s' (groups: %sall, none)", name, names);
    }
    return 0;
}

/* strsep, not strtok: an empty item ("a,,b") must reach add() and be refused, not skipped. */
static int for_each_item(const char *list, struct metric_set *s, struct error *e,
                         int (*add)(struct metric_set *, const char *, struct error *))
{
    char copy[4096];
    if (strlen(list) >= sizeof copy)
        return error_set(e, EXIT_USAGE, "metric list too long");
    strcpy(copy, list);
    char *rest = copy;
    for (char *item = strsep(&rest, ","); item && !e->code; item = strsep(&rest, ","))
        add(s, item, e);
    return e->code;
}

/* "none" beside a group says two things at once: which was meant is the user's to say. */
static int none_stands_alone(const char *group_list, struct error *e)
{
    char items[4096 + 2]; /* ",LIST,": each item between commas */
    snprintf(items, sizeof items, ",%s,", group_list);
    if (strstr(items, ",none,") && strcmp(group_list, "none") != 0)
        return error_set(e, EXIT_USAGE, "--metric-groups: 'none' with other groups in '%s' (none collects no "
                                        "metric: give it alone, or leave it out)", group_list);
    return 0;
}

int metric_set_build(const char *group_list, const char *extra, struct metric_set *out, struct error *e)
{
    memset(out, 0, sizeof *out);
    if (none_stands_alone(group_list, e))
        return e->code;
    if (for_each_item(group_list, out, e, add_group) == 0 && extra)
        for_each_item(extra, out, e, add_metric);
    return e->code;
}

double metric_lookup(const char *const *names, const double *values, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(names[i], name) == 0)
            return values[i];
    return NAN;
}

#define GET(id) metric_lookup(names, values, n, COLLECTED(id))

/* Ideal shared wavefronts from kernel totals: one per instruction, or one per 128 bytes where accesses are wider
 * than 32 bits. Only an estimate: a broadcast needs fewer, and a conflict-free kernel can show an excess. */
static double ideal_wavefronts(double instructions, double bytes)
{
    return isnan(bytes) ? instructions : fmax(instructions, bytes / 128.0);
}

/* The tensor source types: summary.csv's tensor_type names, each type's derived FLOP and its counter. */
static const struct {
    const char *type;
    enum derived_metric_id flop;
    enum collected_metric ops;
} tensor_types[] = {
#define TENSOR_TYPE_ROW(id, name) {name, METRIC_FLOP_TENSOR_##id, METRIC_TENSOR_OPS_##id},
    TENSOR_TYPES(TENSOR_TYPE_ROW)
#undef TENSOR_TYPE_ROW
};
#define TENSOR_TYPE_COUNT (sizeof tensor_types / sizeof tensor_types[0])

/* A tensor counter counts two operations per multiply-add, the convention of flop_fp32: each type's FLOP is its
 * counter as it reads, and flop_tensor their sum (NAN when the tensor group was not collected). */
static void tensor_flop(const char *const *names, const double *values, int n, double v[DERIVED_METRIC_COUNT])
{
    v[METRIC_FLOP_TENSOR] = 0.0;
    for (size_t i = 0; i < TENSOR_TYPE_COUNT; ++i) {
        v[tensor_types[i].flop] = metric_lookup(names, values, n, collected_metric_name(tensor_types[i].ops));
        v[METRIC_FLOP_TENSOR] += v[tensor_types[i].flop];
    }
}

const char *metrics_tensor_type(const struct derived_metric derived[MAX_DERIVED])
{
    const char *type = "";
    double most = 0.0;
    for (size_t i = 0; i < TENSOR_TYPE_COUNT; ++i)
        if (derived[tensor_types[i].flop].value > most) { /* NAN compares false: not collected is not a type */
            most = derived[tensor_types[i].flop].value;
            type = tensor_types[i].type;
        }
    return type;
}

/* Conversions' share of the XU pipe's warp instructions, in %: the thread-level conversions over the lanes an
 * instruction runs on; 0 without XU instructions; NAN where a counter is missing (not judged, not 100). */
static double xu_conversion_share(double conversions, double lanes, double xu_instructions)
{
    if (xu_instructions == 0.0)
        return 0.0;
    double share = 100.0 * conversions / lanes / xu_instructions;
    return lanes > 0.0 && isfinite(share) ? fmin(100.0, share) : NAN;
}

/* The causes group's figures. A kernel without atomics has no skew (1, not 0/0). */
static void causes(const char *const *names, const double *values, int n, double fp64, double v[DERIVED_METRIC_COUNT])
{
    double atomic_max = GET(L2_ATOM_SECTORS_MAX) + GET(L2_RED_SECTORS_MAX);
    double atomic_avg = GET(L2_ATOM_SECTORS_AVG) + GET(L2_RED_SECTORS_AVG);
    v[METRIC_LOCAL_SECTORS] = GET(LOCAL_LD_SECTORS) + GET(LOCAL_ST_SECTORS);
    v[METRIC_GLOBAL_ATOMICS] = GET(GLOBAL_ATOM_INSTRUCTIONS) + GET(GLOBAL_RED_INSTRUCTIONS);
    v[METRIC_L2_ATOMIC_SLICE_SKEW] = atomic_avg > 0.0 ? atomic_max / atomic_avg : isnan(atomic_avg) ? NAN : 1.0;
    v[METRIC_L2_ATOMIC_BUSIEST_SLICE] = atomic_max;
    v[METRIC_ACTIVE_LANES] = GET(LANES_PER_INSTRUCTION);
    v[METRIC_PREDICATED_ON_LANES] = GET(LANES_PRED_ON_PER_INSTRUCTION);
    v[METRIC_CONVERSION_COUNT] = GET(CONVERSIONS);
    v[METRIC_XU_PIPE_PCT] = GET(XU_PIPE);
    v[METRIC_XU_CONVERSION_SHARE] = xu_conversion_share(GET(CONVERSIONS), GET(LANES_PRED_ON_PER_INSTRUCTION),
                                                        GET(XU_INSTRUCTIONS));
    v[METRIC_DIVERGENT_BRANCHES] = GET(BRANCH_TARGETS_DIVERGENT);
    v[METRIC_CONVERSIONS_PER_FP64_OP] = fp64 > 0.0 ? GET(CONVERSIONS) / fp64 : isnan(fp64) ? NAN : 0.0;
    v[METRIC_BLOCKS_LAUNCHED_COUNT] = GET(BLOCKS_LAUNCHED);
}

static void compute(const char *const *names, const double *values, int n, double v[DERIVED_METRIC_COUNT])
{
    double ns = GET(DURATION_NS);
    /* ldmatrix is counted apart from the other shared loads (op_ldsm, not op_ld): its excess is a load's excess;
     * none known where its counters were not collected (runs before them, a --metrics list without them) */
    double ldsm_excess = GET(LDSM_WAVEFRONTS) - ideal_wavefronts(GET(LDSM_INSTRUCTIONS), GET(LDSM_BYTES));
    if (isnan(ldsm_excess))
        ldsm_excess = 0.0;
    double ld_estimate = GET(SHARED_LD_WAVEFRONTS) -
                         ideal_wavefronts(GET(SHARED_LD_INSTRUCTIONS), GET(SHARED_LD_BYTES)) + ldsm_excess;
    double st_estimate = GET(SHARED_ST_WAVEFRONTS) - ideal_wavefronts(GET(SHARED_ST_INSTRUCTIONS), GET(SHARED_ST_BYTES));
    double dram = GET(DRAM_BYTES_READ) + GET(DRAM_BYTES_WRITE);
    double fp32 = GET(FADD) + GET(FMUL) + 2.0 * GET(FFMA);
    double fp64 = GET(DADD) + GET(DMUL) + 2.0 * GET(DFMA);
    v[METRIC_GLOBAL_LOAD_EFFICIENCY] = GET(GLOBAL_LD_BYTES_PER_SECTOR_PCT);
    v[METRIC_GLOBAL_STORE_EFFICIENCY] = GET(GLOBAL_ST_BYTES_PER_SECTOR_PCT);
    v[METRIC_SECTORS_PER_REQUEST_LD] = GET(GLOBAL_LD_SECTORS) / GET(GLOBAL_LD_REQUESTS);
    v[METRIC_SECTORS_PER_REQUEST_ST] = GET(GLOBAL_ST_SECTORS) / GET(GLOBAL_ST_REQUESTS);
    v[METRIC_SHARED_LD_WAVEFRONTS_PER_INST] = GET(SHARED_LD_WAVEFRONTS) / GET(SHARED_LD_INSTRUCTIONS);
    v[METRIC_SHARED_ST_WAVEFRONTS_PER_INST] = GET(SHARED_ST_WAVEFRONTS) / GET(SHARED_ST_INSTRUCTIONS);
    v[METRIC_LDSM_WAVEFRONTS_PER_INST] = GET(LDSM_WAVEFRONTS) / GET(LDSM_INSTRUCTIONS);
    v[METRIC_SHARED_EXCESS_ESTIMATE_LD] = ld_estimate;
    v[METRIC_SHARED_EXCESS_ESTIMATE_ST] = st_estimate;
    v[METRIC_SHARED_EXCESS_ESTIMATE] = ld_estimate + st_estimate;
    v[METRIC_SHARED_CONFLICTS_HW] = GET(SHARED_LD_CONFLICTS_HW) + GET(SHARED_ST_CONFLICTS_HW);
    v[METRIC_DRAM_BYTES] = dram;
    v[METRIC_DRAM_GBS] = dram / ns;
    v[METRIC_DRAM_PCT_OF_PEAK] = GET(DRAM_THROUGHPUT_PCT);
    v[METRIC_DURATION_MS] = ns * 1e-6;
    v[METRIC_FLOP_FP32] = fp32;
    v[METRIC_FLOP_FP64] = fp64;
    v[METRIC_ACHIEVED_GFLOPS] = (fp32 + fp64) / ns;
    v[METRIC_ARITHMETIC_INTENSITY] = (fp32 + fp64) / dram;
    v[METRIC_L2_BYTES] = GET(LTS_BYTES);
    v[METRIC_L1_SHARED_WAVEFRONT_BYTES] = 128.0 * GET(L1_DATA_WAVEFRONTS); /* a wavefront: up to 128 B */
    v[METRIC_ACHIEVED_OCCUPANCY] = GET(WARPS_ACTIVE_PCT);
    v[METRIC_L1_HIT_RATE_PCT] = GET(L1_HIT_RATE);
    v[METRIC_L2_HIT_RATE_PCT] = GET(L2_HIT_RATE);
    v[METRIC_SOL_SM_PCT] = GET(SOL_SM);
    v[METRIC_SOL_MEMORY_PCT] = GET(SOL_MEMORY);
    v[METRIC_SOL_L1_PCT] = GET(SOL_L1);
    v[METRIC_SOL_L2_PCT] = GET(SOL_L2);
    v[METRIC_SOL_DRAM_PCT] = GET(SOL_DRAM);
    v[METRIC_FMA_PIPE_PCT] = GET(FMA_PIPE);
    v[METRIC_ISSUE_SLOTS_PCT] = GET(ISSUE_SLOTS);
    v[METRIC_TENSOR_PIPE_PCT] = GET(TENSOR_PIPE);
    v[METRIC_FP64_PIPE_PCT] = GET(FP64_PIPE);
    tensor_flop(names, values, n, v);
    v[METRIC_TENSOR_GFLOPS] = v[METRIC_FLOP_TENSOR] / ns;
    causes(names, values, n, fp64, v);
}

int metrics_derive(const char *const *names, const double *values, int n, struct derived_metric *out)
{
    double v[DERIVED_METRIC_COUNT];
    compute(names, values, n, v);
    for (int i = 0; i < DERIVED_METRIC_COUNT; ++i)
        out[i] = (struct derived_metric){derived_metric_name(i), derived_metric_unit(i), v[i]};
    return DERIVED_METRIC_COUNT;
}
