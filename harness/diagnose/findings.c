#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"

/* A cause finding smaller than this is left out: a rounding error of its inputs, not a cause. */
#define MIN_GAIN_PCT 1.0
/* Global access: a 4-byte lane alone in its 32-byte sector uses 12.5 % of it; up to 15 % is that pattern. */
#define UNCOALESCED_EFFICIENCY_PCT 15.0
/* Excess sectors per request: more than 1.5, the lanes are spaced apart (strided); from 0.5 to 1.5, about one sector
 * more than the bytes need, a sector boundary straddled (misaligned); below, broadcasts or a partial tail. */
#define STRIDED_EXCESS_PER_REQUEST 1.5
#define MISALIGNED_EXCESS_PER_REQUEST 0.5
#define CONFLICT_SHARE_MIN 0.02 /* of shared wavefronts */
#define LOCAL_SHARE_MIN 0.01    /* of global and local sectors */
/* The L2 serves 1.0 to 2.8 times the LSU's global and local sectors in the corpus and the ground truth (its writes,
 * its misses' fills); TMA kernels (cuBLAS's GEMMs, the ladder's wgmma rungs) 120 times and more, their tiles moved
 * by bulk copies no LSU counter sees. Beyond this ratio a kernel's LSU accesses are weighed against the L2's sectors. */
#define BULK_TRAFFIC_RATIO 4.0
#define DIVERGED_LANES 30.0     /* active lanes per warp instruction at most: two or more lanes idle on average */
#define PREDICATED_OFF_LANES 4.0 /* lanes active but predicated off per warp instruction, at least: one in eight */
#define ATOMIC_SKEW_MIN 4.0     /* the busiest L2 slice takes at least 4 times its share of the atomics */
/* One address's atomics served by one L2 slice, per nanosecond: the corpus's atomic_one_address on the H100
 * (docs/metrics.md). Atomics to several addresses of a slice go no slower, so a slice's atomic time is at most its
 * atomic sectors over this rate. */
#define SLICE_ATOMICS_PER_NS 1.37
#define CONVERSIONS_PER_FP64_MIN 0.25 /* an FP32 value widened and narrowed around a few FP64 operations */
#define LAUNCH_COST_US 3.0      /* assumed, not measured: a launch's cost on the host and the GPU, CUDA 13 */

/* The units a finding may waste; UNIT_MEMORY, UNIT_SM and UNIT_ARITHMETIC name the busiest of L1/L2/DRAM, of
 * issue/FMA and of issue/FMA/FP64, resolved for each kernel; UNIT_BOUND the limiter's, whichever it is (SMs left
 * idle waste every unit alike). Latency: the time no unit is busy. */
enum unit { UNIT_L1, UNIT_L2, UNIT_DRAM, UNIT_FMA, UNIT_FP64, UNIT_TENSOR, UNIT_ISSUE, UNIT_XU, UNIT_LATENCY,
            UNIT_COUNT, UNIT_MEMORY, UNIT_SM, UNIT_ARITHMETIC, UNIT_BOUND };
static const char *const unit_names[UNIT_COUNT] = {"L1/shared",   "L2",          "DRAM",    "FMA pipe", "FP64 pipe",
                                                   "tensor pipe", "issue slots", "XU pipe", "latency"};

enum kind { CAUSE, BOUND };
#define NO_INPUT (-1)

struct judge {
    const double *v;
    bool tensor; /* the kernel ran tensor operations */
    double share[UNIT_COUNT]; /* 0 to 1; latency: 1 less the busiest unit's; NAN where not collected */
    int bound_unit;           /* the limiter's unit; -1 when not collected */
    const struct diagnosis *d;
    const struct finding_lines *lines;
    double explained[UNIT_COUNT]; /* the cause findings' gains, per unit, for the bound finding */
};

/* ---- global access ---- */

struct access {
    const char *what; /* "loads", "stores" */
    double requests, sectors, efficiency, excess, excess_per_request;
};

static struct access access_of(const double *v, bool store)
{
    struct access a = {store ? "stores" : "loads", v[store ? IN_ST_REQUESTS : IN_LD_REQUESTS],
                       v[store ? IN_ST_SECTORS : IN_LD_SECTORS], v[store ? IN_STORE_EFFICIENCY : IN_LOAD_EFFICIENCY],
                       NAN, NAN};
    a.excess = a.sectors * (1.0 - a.efficiency / 100.0);
    a.excess_per_request = a.excess / a.requests;
    return a;
}

/* The L2's sectors where bulk copies carry the kernel's traffic (BULK_TRAFFIC_RATIO), else NAN. */
static double bulk_sectors(const double *v)
{
    double lsu = v[IN_LD_SECTORS] + v[IN_ST_SECTORS] + (isnan(v[IN_LOCAL_SECTORS]) ? 0.0 : v[IN_LOCAL_SECTORS]);
    double l2 = v[IN_L2_BYTES] / 32.0;
    return l2 > BULK_TRAFFIC_RATIO * lsu ? l2 : NAN;
}

/* The sectors a global access's excess is weighed against: the LSU's global sectors, or the L2's in a bulk-copy
 * kernel (cuBLAS's tf32 GEMM: 88 % of its 1-sector stores' sectors excess, 61.7 % "gain", of 0.1 % of its traffic). */
static double all_sectors(const double *v)
{
    double bulk = bulk_sectors(v);
    return isnan(bulk) ? v[IN_LD_SECTORS] + v[IN_ST_SECTORS] : bulk;
}

/* What all_sectors and local_share weigh against, in words. */
static const char *sectors_named(const double *v, bool local)
{
    if (!isnan(bulk_sectors(v)))
        return "of the L2's sectors (bulk copies carry the kernel's traffic)";
    return local ? "of global and local sectors" : "of global sectors";
}

static bool uncoalesced(const struct access *a)
{
    return a->requests > 0 && a->efficiency <= UNCOALESCED_EFFICIENCY_PCT;
}

static bool strided(const struct access *a)
{
    return a->requests > 0 && a->efficiency > UNCOALESCED_EFFICIENCY_PCT &&
           a->excess_per_request > STRIDED_EXCESS_PER_REQUEST;
}

static bool misaligned(const struct access *a)
{
    return a->requests > 0 && a->efficiency > UNCOALESCED_EFFICIENCY_PCT &&
           a->excess_per_request >= MISALIGNED_EXCESS_PER_REQUEST &&
           a->excess_per_request <= STRIDED_EXCESS_PER_REQUEST;
}

/* The busiest of the units a unit class names; for the memory class, the limiter where it is a memory unit (the
 * DRAM named for an L2 that mostly misses: wasted sectors cost the unit that bounds the kernel, and a misaligned
 * stream at L2 80 %, DRAM 74 % read dram_bound before its cause). */
static int resolve(const struct judge *j, int unit)
{
    static const int memory[] = {UNIT_L1, UNIT_L2, UNIT_DRAM}, sm[] = {UNIT_ISSUE, UNIT_FMA},
                     arithmetic[] = {UNIT_ISSUE, UNIT_FMA, UNIT_FP64};
    const int *among = unit == UNIT_MEMORY ? memory : unit == UNIT_SM ? sm : arithmetic;
    int n = unit == UNIT_SM ? 2 : 3, best = among[0];
    if (unit == UNIT_BOUND)
        return j->bound_unit >= 0 ? j->bound_unit : UNIT_LATENCY;
    if (unit == UNIT_MEMORY && (j->bound_unit == UNIT_L1 || j->bound_unit == UNIT_L2 || j->bound_unit == UNIT_DRAM))
        return j->bound_unit;
    if (unit != UNIT_MEMORY && unit != UNIT_SM && unit != UNIT_ARITHMETIC)
        return unit;
    for (int i = 1; i < n; ++i)
        if (j->share[among[i]] > j->share[best] || isnan(j->share[best]))
            best = among[i];
    return best;
}

/* Excess sectors over all global sectors, times the busy share of the memory unit they cross (Nsight Compute's
 * UncoalescedGlobalAccess takes the L2's; a sector costs L1 a wavefront and DRAM a transfer too, hit or miss, so the
 * busiest of the three is taken). */
static double access_gain(const struct judge *j, double excess)
{
    return 100.0 * j->share[resolve(j, UNIT_MEMORY)] * excess / all_sectors(j->v);
}

static void say_access(const struct judge *j, const struct access *a, const char *pattern, struct finding *f)
{
    int unit = resolve(j, UNIT_MEMORY);
    snprintf(f->evidence, sizeof f->evidence,
             "global %s use %.1f %% of the bytes their sectors carry (%.1f sectors per request, %.1f of them beyond "
             "the bytes' need: %s); excess: %.0f %% %s; %s at %.0f %% of peak",
             a->what, a->efficiency, a->sectors / a->requests, a->excess_per_request, pattern,
             100.0 * a->excess / all_sectors(j->v), sectors_named(j->v, false), unit_names[unit],
             100.0 * j->share[unit]);
}

static void name_line(const struct judge *j, const struct worst_line *w, struct finding *f)
{
    if (j->lines && j->lines->any && w->excess > 0)
        snprintf(f->where, sizeof f->where, "%s", w->where);
}

static const struct worst_line *global_line(const struct judge *j, bool store)
{
    return store ? &j->lines->global_st : &j->lines->global_ld;
}

static bool applies_uncoalesced_loads(const struct judge *j, int unit)
{
    (void)unit;
    struct access a = access_of(j->v, false);
    return uncoalesced(&a);
}

static double gain_uncoalesced_loads(const struct judge *j, int unit)
{
    (void)unit;
    return access_gain(j, access_of(j->v, false).excess);
}

static void say_uncoalesced_loads(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    struct access a = access_of(j->v, false);
    say_access(j, &a, "each lane its own sector", f);
    if (j->lines)
        name_line(j, global_line(j, false), f);
}

static bool applies_uncoalesced_stores(const struct judge *j, int unit)
{
    (void)unit;
    struct access a = access_of(j->v, true);
    return uncoalesced(&a);
}

static double gain_uncoalesced_stores(const struct judge *j, int unit)
{
    (void)unit;
    return access_gain(j, access_of(j->v, true).excess);
}

static void say_uncoalesced_stores(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    struct access a = access_of(j->v, true);
    say_access(j, &a, "each lane its own sector", f);
    if (j->lines)
        name_line(j, global_line(j, true), f);
}

/* Of the loads and stores that match a pattern, the one with more excess sectors (-1: neither matches). */
static int worse_matching(const struct judge *j, bool (*pattern)(const struct access *))
{
    struct access ld = access_of(j->v, false), st = access_of(j->v, true);
    bool l = pattern(&ld), s = pattern(&st);
    if (!l && !s)
        return -1;
    return l && (!s || ld.excess >= st.excess) ? 0 : 1;
}

/* The excess sectors of the loads and stores that match a pattern. */
static double matching_excess(const struct judge *j, bool (*pattern)(const struct access *))
{
    struct access ld = access_of(j->v, false), st = access_of(j->v, true);
    return (pattern(&ld) ? ld.excess : 0.0) + (pattern(&st) ? st.excess : 0.0);
}

static void say_pattern(const struct judge *j, bool (*pattern)(const struct access *), const char *words,
                        struct finding *f)
{
    bool store = worse_matching(j, pattern) == 1;
    struct access a = access_of(j->v, store);
    say_access(j, &a, words, f);
    if (j->lines)
        name_line(j, global_line(j, store), f);
}

static bool applies_strided(const struct judge *j, int unit)
{
    (void)unit;
    return worse_matching(j, strided) >= 0;
}

static double gain_strided(const struct judge *j, int unit)
{
    (void)unit;
    return access_gain(j, matching_excess(j, strided));
}

static void say_strided(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    say_pattern(j, strided, "lanes spaced apart", f);
}

static bool applies_misaligned(const struct judge *j, int unit)
{
    (void)unit;
    return worse_matching(j, misaligned) >= 0;
}

static double gain_misaligned(const struct judge *j, int unit)
{
    (void)unit;
    return access_gain(j, matching_excess(j, misaligned));
}

static void say_misaligned(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    say_pattern(j, misaligned, "about one sector more, a boundary straddled", f);
}

/* ---- shared memory ---- */

static double conflict_share(const struct judge *j, bool store)
{
    return j->v[store ? IN_SHARED_ST_EXCESS : IN_SHARED_LD_EXCESS] / j->v[IN_SHARED_WAVEFRONTS];
}

/* Nsight Compute's SharedMemoryConflicts: the conflicts' share of shared wavefronts times the L1's busy share. */
static double conflict_gain(const struct judge *j, bool store)
{
    return 100.0 * j->share[UNIT_L1] * conflict_share(j, store);
}

static void say_conflicts(const struct judge *j, bool store, struct finding *f)
{
    snprintf(f->evidence, sizeof f->evidence,
             "%.0f shared %s wavefronts beyond the ideal, %.0f %% of all %.0f shared wavefronts; L1/shared at %.0f %% "
             "of peak",
             j->v[store ? IN_SHARED_ST_EXCESS : IN_SHARED_LD_EXCESS], store ? "store" : "load",
             100.0 * conflict_share(j, store), j->v[IN_SHARED_WAVEFRONTS], 100.0 * j->share[UNIT_L1]);
    if (j->lines)
        name_line(j, store ? &j->lines->shared_st : &j->lines->shared_ld, f);
}

static bool applies_shared_load_conflicts(const struct judge *j, int unit)
{
    (void)unit;
    return conflict_share(j, false) >= CONFLICT_SHARE_MIN;
}

static double gain_shared_load_conflicts(const struct judge *j, int unit)
{
    (void)unit;
    return conflict_gain(j, false);
}

static void say_shared_load_conflicts(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    say_conflicts(j, false, f);
}

static bool applies_shared_store_conflicts(const struct judge *j, int unit)
{
    (void)unit;
    return conflict_share(j, true) >= CONFLICT_SHARE_MIN;
}

static double gain_shared_store_conflicts(const struct judge *j, int unit)
{
    (void)unit;
    return conflict_gain(j, true);
}

static void say_shared_store_conflicts(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    say_conflicts(j, true, f);
}

/* ---- local memory, divergence, atomics, FP64 ---- */

static double local_share(const struct judge *j)
{
    double bulk = bulk_sectors(j->v);
    return j->v[IN_LOCAL_SECTORS] / (isnan(bulk) ? j->v[IN_LOCAL_SECTORS] + all_sectors(j->v) : bulk);
}

static bool applies_local_memory(const struct judge *j, int unit)
{
    (void)unit;
    return local_share(j) >= LOCAL_SHARE_MIN;
}

/* Local sectors travel the same L1, L2 and DRAM as global ones: their share of the sectors times the busiest. */
static double gain_local_memory(const struct judge *j, int unit)
{
    (void)unit;
    return 100.0 * j->share[resolve(j, UNIT_MEMORY)] * local_share(j);
}

static void say_local_memory(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    int busiest = resolve(j, UNIT_MEMORY);
    snprintf(f->evidence, sizeof f->evidence,
             "%.0f local-memory sectors, %.0f %% %s; %.0f registers per thread; %s at %.0f %% of peak",
             j->v[IN_LOCAL_SECTORS], 100.0 * local_share(j), sectors_named(j->v, true), j->v[IN_REGISTERS],
             unit_names[busiest], 100.0 * j->share[busiest]);
}

static bool applies_divergence(const struct judge *j, int unit)
{
    (void)unit;
    return j->v[IN_DIVERGENT_BRANCHES] > 0 && j->v[IN_ACTIVE_LANES] <= DIVERGED_LANES;
}

/* The idle lanes' share of each warp instruction, times the busier of the issue slots and the FMA pipe: the
 * instructions the warps' paths issue one after the other. */
static double gain_divergence(const struct judge *j, int unit)
{
    return 100.0 * j->share[resolve(j, unit)] * (1.0 - j->v[IN_ACTIVE_LANES] / 32.0);
}

static void say_divergence(const struct judge *j, int unit, struct finding *f)
{
    int busier = resolve(j, unit);
    snprintf(f->evidence, sizeof f->evidence,
             "%.1f of 32 lanes active per warp instruction; %.0f divergent branch targets; %s at %.0f %% of peak",
             j->v[IN_ACTIVE_LANES], j->v[IN_DIVERGENT_BRANCHES], unit_names[busier], 100.0 * j->share[busier]);
}

/* Lanes active but predicated off: a divergent if the compiler turned into predicated instructions shows no divergent
 * branch target and about 32 active lanes (Nsight Compute's ThreadDivergence rule reads both ratios). */
static double predicated_off_lanes(const double *v)
{
    return v[IN_ACTIVE_LANES] - v[IN_PREDICATED_ON_LANES];
}

static bool applies_predication(const struct judge *j, int unit)
{
    (void)unit;
    return predicated_off_lanes(j->v) >= PREDICATED_OFF_LANES;
}

/* As for divergence: the predicated-off lanes' share of each warp instruction, times the busier of the issue slots
 * and the FMA pipe. */
static double gain_predication(const struct judge *j, int unit)
{
    return 100.0 * j->share[unit] * predicated_off_lanes(j->v) / 32.0;
}

static void say_predication(const struct judge *j, int unit, struct finding *f)
{
    snprintf(f->evidence, sizeof f->evidence,
             "%.1f of 32 lanes active per warp instruction, %.1f of them not predicated off: a branch the compiler "
             "made into predicated instructions (%.0f divergent branch targets); %s at %.0f %% of peak",
             j->v[IN_ACTIVE_LANES], j->v[IN_PREDICATED_ON_LANES], j->v[IN_DIVERGENT_BRANCHES], unit_names[unit],
             100.0 * j->share[unit]);
    if (j->lines)
        name_line(j, &j->lines->predicated_off, f);
}

static bool applies_fp64_in_fp32(const struct judge *j, int unit);

/* Type conversions (integer division and modulo compile to two, around a MUFU.RCP) run on the XU pipe, at a
 * fraction of the FMA pipe's rate. Not where they are an FP64 path's (fp64_in_fp32_kernel names that cause), nor in
 * a kernel that ran tensor operations, whose conversions pack its FP32 results into the tensor type for the next
 * product (cuDNN's flash attention: inherent, not a fix). */
static bool applies_conversions(const struct judge *j, int unit)
{
    return j->v[IN_CONVERSIONS] > 0 && j->v[IN_XU_CONVERSION_SHARE] > 0 && !j->tensor &&
           !applies_fp64_in_fp32(j, unit);
}

/* The XU pipe's busy share that is conversions': at most what removing them frees. */
static double conversion_share_of_xu(const struct judge *j)
{
    return j->share[UNIT_XU] * j->v[IN_XU_CONVERSION_SHARE];
}

static double gain_conversions(const struct judge *j, int unit)
{
    (void)unit;
    return conversion_share_of_xu(j);
}

static void say_conversions(const struct judge *j, int unit, struct finding *f)
{
    double fp32 = j->v[IN_FLOP_FP32];
    snprintf(f->evidence, sizeof f->evidence,
             "%.0f type conversions (thread level), %.0f %% of the XU pipe's instructions, %.1f per FP32 operation: "
             "integer division or modulo (I2F, MUFU.RCP, F2I) or mixed types; XU pipe at %.0f %% of peak",
             j->v[IN_CONVERSIONS], j->v[IN_XU_CONVERSION_SHARE], fp32 > 0 ? j->v[IN_CONVERSIONS] / fp32 : NAN,
             100.0 * j->share[unit]);
    if (j->lines)
        name_line(j, &j->lines->conversions, f);
}

/* The busiest L2 slice's atomic sectors beyond an even spread, in nanoseconds at one address's atomic rate. */
static double excess_atomic_ns(const double *v)
{
    double busiest = v[IN_ATOMIC_BUSIEST_SLICE];
    return (busiest - busiest / v[IN_ATOMIC_SLICE_SKEW]) / SLICE_ATOMICS_PER_NS;
}

/* More than one atomic a block on few addresses: one a block (a tile scheduler's counter, cuDNN's attention) is
 * bookkeeping, not contention. */
static bool applies_atomics(const struct judge *j, int unit)
{
    (void)unit;
    const double *v = j->v;
    return v[IN_GLOBAL_ATOMICS] > v[IN_BLOCKS_LAUNCHED] && v[IN_ATOMIC_SLICE_SKEW] >= ATOMIC_SKEW_MIN;
}

/* Atomics on few addresses queue at the few L2 slices that hold them: the time the busiest slice takes for its
 * atomics beyond an even spread's share, over the kernel's time; at most 1 - 1/skew, the part of its atomics an even
 * spread would move off it. */
static double gain_atomics(const struct judge *j, int unit)
{
    (void)unit;
    double time_share = excess_atomic_ns(j->v) / (1e6 * j->v[IN_DURATION_MS]);
    if (isnan(time_share)) /* fmin would take the other figure: not judged */
        return NAN;
    return 100.0 * fmin(1.0 - 1.0 / j->v[IN_ATOMIC_SLICE_SKEW], time_share);
}

static void say_atomics(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    const double *v = j->v;
    snprintf(f->evidence, sizeof f->evidence,
             "%.0f global atomic instructions, %.1f per block; the busiest L2 slice takes %.0f atomic sectors, %.1f "
             "times the mean slice's: %.1f us beyond an even spread at one address's rate, of the kernel's %.1f us",
             v[IN_GLOBAL_ATOMICS], v[IN_GLOBAL_ATOMICS] / v[IN_BLOCKS_LAUNCHED], v[IN_ATOMIC_BUSIEST_SLICE],
             v[IN_ATOMIC_SLICE_SKEW], excess_atomic_ns(v) / 1000.0, 1000.0 * v[IN_DURATION_MS]);
}

static bool applies_fp64_in_fp32(const struct judge *j, int unit)
{
    (void)unit;
    return j->v[IN_FLOP_FP64] > 0 && j->v[IN_CONVERSIONS_PER_FP64_OP] >= CONVERSIONS_PER_FP64_MIN;
}

/* The FP64 operations and the conversions around them, as a share of the kernel's arithmetic (FP32 operations too). */
static double fp64_path_share(const double *v)
{
    double fp64_path = v[IN_FLOP_FP64] * (1.0 + v[IN_CONVERSIONS_PER_FP64_OP]);
    return fp64_path / (fp64_path + v[IN_FLOP_FP32]);
}

/* The FP64 path's share of the arithmetic, times the busiest of the units it runs on (issue slots, FMA and FP64
 * pipes): in FP32 it would be one operation where it is three or more, at twice the FP64 rate. Where the XU pipe was
 * measured, its conversions' busy share when larger: widening and narrowing can cost more than the FP64 operations
 * (the corpus's double literal: XU pipe 93 %, issue slots 24 %). */
static double gain_fp64_in_fp32(const struct judge *j, int unit)
{
    double arithmetic = 100.0 * j->share[unit] * fp64_path_share(j->v);
    return isnan(arithmetic) ? NAN : fmax(arithmetic, conversion_share_of_xu(j)); /* fmax would drop the NAN */
}

static void say_fp64_in_fp32(const struct judge *j, int unit, struct finding *f)
{
    int used = snprintf(f->evidence, sizeof f->evidence,
                        "%.0f FP64 operations with %.2f type conversions each (FP32 values widened and narrowed), %.0f "
                        "%% of the arithmetic with them; %s at %.0f %% of peak",
                        j->v[IN_FLOP_FP64], j->v[IN_CONVERSIONS_PER_FP64_OP], 100.0 * fp64_path_share(j->v),
                        unit_names[unit], 100.0 * j->share[unit]);
    if (!isnan(j->share[UNIT_XU]) && used > 0 && (size_t)used < sizeof f->evidence)
        snprintf(f->evidence + used, sizeof f->evidence - (size_t)used, "; the conversions keep the XU pipe at %.0f %%",
                 100.0 * j->share[UNIT_XU]);
    if (j->lines)
        name_line(j, &j->lines->conversions, f);
}

/* ---- the launch: occupancy, waves, its length ---- */

static bool long_enough(const struct judge *j)
{
    return !(j->v[IN_DURATION_MS] < DIAGNOSIS_STEADY_STATE_MS); /* unknown: judged */
}

enum resource { BY_REGISTERS, BY_SHARED, BY_BLOCK_SIZE, RESOURCES };
static const char *const resource_names[RESOURCES] = {"registers", "shared memory", "block size"};

/* The resource that sets the blocks an SM holds (the first of the smallest), the theoretical occupancy it allows
 * and the one the others would (0 to 1); -1 where a figure is unknown or no block fits. */
static int occupancy_limiter(const double *v, double *occupancy, double *without)
{
    const double blocks[RESOURCES] = {v[IN_BLOCKS_BY_REGISTERS], v[IN_BLOCKS_BY_SHARED], v[IN_BLOCKS_BY_BLOCK_SIZE]};
    double warps_per_block = ceil(v[IN_THREADS_PER_BLOCK] / 32.0), others = INFINITY;
    int limiter = 0;
    for (int r = 0; r < RESOURCES; ++r)
        if (isnan(blocks[r]))
            return -1;
    for (int r = 1; r < RESOURCES; ++r)
        if (blocks[r] < blocks[limiter])
            limiter = r;
    for (int r = 0; r < RESOURCES; ++r)
        if (r != limiter)
            others = fmin(others, blocks[r]);
    *occupancy = fmin(1.0, blocks[limiter] * warps_per_block / v[IN_SM_MAX_WARPS]);
    *without = fmin(1.0, others * warps_per_block / v[IN_SM_MAX_WARPS]);
    return blocks[limiter] >= 1 && !isnan(*occupancy) ? limiter : -1;
}

static double waves(const struct judge *j);

/* A grid of less than one wave leaves SM slots empty whatever the resources: the grid, not the resource, is short. */
static bool occupancy_applies(const struct judge *j, enum resource r)
{
    double occupancy, without;
    return long_enough(j) && !(waves(j) < 1.0) && occupancy_limiter(j->v, &occupancy, &without) == (int)r &&
           occupancy < without;
}

/* Nsight Compute's occupancy rules: the warps the resource keeps off the SM, as a share of those the other
 * resources allow, times the time no unit is busy (more warps hide latency, not a busy unit's work). */
static double occupancy_gain(const struct judge *j)
{
    double occupancy, without;
    occupancy_limiter(j->v, &occupancy, &without);
    return 100.0 * j->share[UNIT_LATENCY] * (1.0 - occupancy / without);
}

static void say_occupancy(const struct judge *j, enum resource r, struct finding *f)
{
    double occupancy, without;
    const double *v = j->v;
    occupancy_limiter(v, &occupancy, &without);
    snprintf(f->evidence, sizeof f->evidence,
             "theoretical occupancy %.0f %% (%.0f blocks of %.0f threads per SM by %s; %.0f registers per thread), "
             "%.0f %% by the other limits; achieved %.0f %%; no unit above %.0f %% of peak",
             100.0 * occupancy, (r == BY_REGISTERS   ? v[IN_BLOCKS_BY_REGISTERS]
                                 : r == BY_SHARED    ? v[IN_BLOCKS_BY_SHARED]
                                                     : v[IN_BLOCKS_BY_BLOCK_SIZE]),
             v[IN_THREADS_PER_BLOCK], resource_names[r], v[IN_REGISTERS], 100.0 * without, v[IN_OCCUPANCY],
             100.0 * (1.0 - j->share[UNIT_LATENCY]));
}

static bool applies_occupancy_registers(const struct judge *j, int unit)
{
    (void)unit;
    return occupancy_applies(j, BY_REGISTERS);
}

static bool applies_occupancy_shared(const struct judge *j, int unit)
{
    (void)unit;
    return occupancy_applies(j, BY_SHARED);
}

static bool applies_occupancy_block_size(const struct judge *j, int unit)
{
    (void)unit;
    return occupancy_applies(j, BY_BLOCK_SIZE);
}

static double gain_occupancy(const struct judge *j, int unit)
{
    (void)unit;
    return occupancy_gain(j);
}

#define gain_occupancy_registers gain_occupancy
#define gain_occupancy_shared gain_occupancy
#define gain_occupancy_block_size gain_occupancy

static void say_occupancy_registers(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    say_occupancy(j, BY_REGISTERS, f);
}

static void say_occupancy_shared(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    say_occupancy(j, BY_SHARED, f);
}

static void say_occupancy_block_size(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    say_occupancy(j, BY_BLOCK_SIZE, f);
}

static bool applies_too_few_blocks(const struct judge *j, int unit)
{
    (void)unit;
    return long_enough(j) && j->v[IN_BLOCKS_LAUNCHED] >= 1 && j->v[IN_BLOCKS_LAUNCHED] < j->v[IN_SM_COUNT];
}

/* The SMs the grid leaves idle, had its work been spread over them all. */
static double gain_too_few_blocks(const struct judge *j, int unit)
{
    (void)unit;
    return 100.0 * (1.0 - j->v[IN_BLOCKS_LAUNCHED] / j->v[IN_SM_COUNT]);
}

static void say_too_few_blocks(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    snprintf(f->evidence, sizeof f->evidence, "%.0f blocks for %.0f SMs: %.0f SMs idle", j->v[IN_BLOCKS_LAUNCHED],
             j->v[IN_SM_COUNT], j->v[IN_SM_COUNT] - j->v[IN_BLOCKS_LAUNCHED]);
}

/* Waves of blocks: the grid over the blocks all SMs hold at once. */
static double waves(const struct judge *j)
{
    const double *v = j->v;
    double per_sm = fmin(v[IN_BLOCKS_BY_REGISTERS], fmin(v[IN_BLOCKS_BY_SHARED], v[IN_BLOCKS_BY_BLOCK_SIZE]));
    if (isnan(v[IN_BLOCKS_BY_REGISTERS]) || isnan(v[IN_BLOCKS_BY_SHARED]) || isnan(v[IN_BLOCKS_BY_BLOCK_SIZE]))
        return NAN;
    return v[IN_BLOCKS_LAUNCHED] / (per_sm * v[IN_SM_COUNT]);
}

static bool applies_partial_wave(const struct judge *j, int unit)
{
    (void)unit;
    double w = waves(j);
    return long_enough(j) && j->v[IN_BLOCKS_LAUNCHED] >= j->v[IN_SM_COUNT] && w > 1.0 && w < ceil(w);
}

static bool memory_unit(int unit)
{
    return unit == UNIT_L1 || unit == UNIT_L2 || unit == UNIT_DRAM;
}

/* Nsight Compute's tail effect: the last wave's empty slots over all waves' slots, blocks taking equal times. A
 * memory-bound kernel's tail costs only the bandwidth it leaves idle: the blocks still running draw more of it each,
 * the more so the more headroom the unit had (a unit at 76 % of its peak leaves 24 % to them), so the empty slots'
 * share is weighed by the unit's idle share. */
static double gain_partial_wave(const struct judge *j, int unit)
{
    double w = waves(j), empty = 1.0 - w / ceil(w);
    return 100.0 * empty * (memory_unit(unit) ? 1.0 - j->share[unit] : 1.0);
}

static void say_partial_wave(const struct judge *j, int unit, struct finding *f)
{
    double w = waves(j);
    int used = snprintf(f->evidence, sizeof f->evidence, "%.0f blocks make %.2f waves on %.0f SMs: the last wave fills "
                        "%.0f %% of the SMs' slots", j->v[IN_BLOCKS_LAUNCHED], w, j->v[IN_SM_COUNT],
                        100.0 * (w - floor(w)));
    if (memory_unit(unit) && used > 0 && (size_t)used < sizeof f->evidence)
        snprintf(f->evidence + used, sizeof f->evidence - (size_t)used, "; memory-bound (%s at %.0f %% of peak): "
                 "only the bandwidth the tail leaves idle counts", unit_names[unit], 100.0 * j->share[unit]);
}

static bool applies_launch_overhead(const struct judge *j, int unit)
{
    (void)unit;
    return j->v[IN_DURATION_MS] < DIAGNOSIS_STEADY_STATE_MS;
}

/* The launch's assumed cost as a share of the launch and the kernel together: what fusing it with its neighbours,
 * or a CUDA graph, could save. */
static double gain_launch_overhead(const struct judge *j, int unit)
{
    (void)unit;
    return 100.0 * LAUNCH_COST_US / (LAUNCH_COST_US + 1000.0 * j->v[IN_DURATION_MS]);
}

static void say_launch_overhead(const struct judge *j, int unit, struct finding *f)
{
    (void)unit;
    snprintf(f->evidence, sizeof f->evidence, "the kernel runs %.1f us, against an assumed launch cost of %.0f us",
             1000.0 * j->v[IN_DURATION_MS], LAUNCH_COST_US);
}

/* ---- bound findings ---- */

static bool applies_bound(const struct judge *j, int unit)
{
    return j->bound_unit == unit;
}

/* The most a kernel's time can fall by relieving one unit: until the busiest of the others bounds it (latency: until
 * the busiest unit does), 1 less that unit's busy share. */
static double headroom(const struct judge *j, int unit)
{
    double others = 0.0;
    for (int u = 0; u < UNIT_LATENCY; ++u)
        if (u != unit && j->share[u] > others)
            others = j->share[u];
    return 1.0 - others;
}

/* What the cause findings on the unit leave of its busy share (of the idle time, for latency), at most its headroom:
 * relieving a bound unit saves no more than the next unit lets it. */
static double gain_bound(const struct judge *j, int unit)
{
    return fmax(0.0, fmin(100.0 * j->share[unit] - j->explained[unit], 100.0 * headroom(j, unit)));
}

static void say_bound(const struct judge *j, int unit, struct finding *f)
{
    if (unit == UNIT_LATENCY)
        snprintf(f->evidence, sizeof f->evidence, "limiter latency: the busiest unit at %.0f %% of peak; the cause "
                 "findings on latency account for %.0f points", 100.0 * (1.0 - j->share[unit]), j->explained[unit]);
    else
        snprintf(f->evidence, sizeof f->evidence, "limiter %s: %s at %.0f %% of peak, the next unit at %.0f %%; the "
                 "cause findings on it account for %.0f points", j->d->limiter, unit_names[unit],
                 100.0 * j->share[unit], 100.0 * (1.0 - headroom(j, unit)), j->explained[unit]);
}

/*
 * The rules: X(name, kind, unit, the input it cannot be judged without (NO_INPUT: none), "the inputs it reads",
 * function stem, "what it finds and how it estimates"). The
 * stem names applies_<stem> (the condition), gain_<stem> (the estimated gain, % of the kernel's time) and say_<stem>
 * (the evidence, and the line where known). The order breaks ties of gain.
 */
#define FINDING_RULES(X)                                                                                              \
    X("uncoalesced_global_loads", CAUSE, UNIT_MEMORY, IN_LOAD_EFFICIENCY,                                              \
      "global_load_efficiency, global ld/st sectors and requests",                                                     \
      uncoalesced_loads,                                                                                              \
      "global loads use at most 15 % of their sectors' bytes (each lane its own sector); gain: busiest memory "      \
      "unit's share x the loads' excess sectors / all global sectors")                                                \
    X("uncoalesced_global_stores", CAUSE, UNIT_MEMORY, IN_STORE_EFFICIENCY,                                            \
      "global_store_efficiency, global ld/st sectors and requests",                                                    \
      uncoalesced_stores, "the same for global stores")                                                              \
    X("strided_global_access", CAUSE, UNIT_MEMORY, IN_LD_SECTORS,                                                      \
      "global ld/st efficiency, sectors and requests", strided,                                                        \
      "loads or stores above 15 % efficiency with more than 1.5 excess sectors per request (lanes spaced apart); "   \
      "gain as for uncoalesced access, over the matching excess")                                                     \
    X("misaligned_global_access", CAUSE, UNIT_MEMORY, IN_LD_SECTORS,                                                   \
      "global ld/st efficiency, sectors and requests", misaligned,                                                     \
      "loads or stores with 0.5 to 1.5 excess sectors per request (a sector boundary straddled); gain as above")     \
    X("shared_load_conflicts", CAUSE, UNIT_L1, IN_SHARED_LD_EXCESS,                                                    \
      "shared load excess wavefronts, shared wavefronts, sol_l1_pct",                                                  \
      shared_load_conflicts,                                                                                          \
      "shared loads' wavefronts beyond the ideal are at least 2 % of shared wavefronts; gain: that share x L1's "    \
      "busy share")                                                                                                   \
    X("shared_store_conflicts", CAUSE, UNIT_L1, IN_SHARED_ST_EXCESS,                                                   \
      "shared store excess wavefronts, shared wavefronts, sol_l1_pct",                                                 \
      shared_store_conflicts, "the same for shared stores")                                                          \
    X("local_memory_spills", CAUSE, UNIT_MEMORY, IN_LOCAL_SECTORS,                                                     \
      "local_sectors, global sectors, registers_per_thread",                                                           \
      local_memory, "local sectors are at least 1 % of global and local sectors; gain: that share x busiest memory " \
                    "unit's share")                                                                                   \
    X("branch_divergence", CAUSE, UNIT_SM, IN_ACTIVE_LANES,                                                            \
      "active_lanes_per_instruction, divergent_branch_targets", divergence,                                            \
      "divergent branches, 30 or fewer of 32 lanes active per instruction; gain: idle lanes' share x the busier of " \
      "issue slots and FMA pipe")                                                                                     \
    X("predicated_off_lanes", CAUSE, UNIT_SM, IN_PREDICATED_ON_LANES,                                                  \
      "active_lanes_per_instruction, predicated_on_lanes_per_instruction",                                             \
      predication,                                                                                                    \
      "four or more of the active lanes predicated off per instruction (a branch made predication); gain: their "    \
      "share of 32 lanes x the busier of issue slots and FMA pipe")                                                   \
    X("type_conversions", CAUSE, UNIT_XU, IN_XU_CONVERSION_SHARE,                                                      \
      "conversions, xu_conversion_share_pct, xu_pipe_pct", conversions,                                                \
      "type conversions on the XU pipe (integer division and modulo make two each), in a kernel without tensor "     \
      "work and not an FP64 path's; gain: the XU pipe's busy share x the conversions' share of its instructions")    \
    X("atomic_contention", CAUSE, UNIT_LATENCY, IN_ATOMIC_BUSIEST_SLICE, \
      "global_atomic_instructions, l2_atomic_slice_skew, l2_atomic_sectors_busiest_slice, blocks_launched, "         \
      "duration_ms",                                                                                                  \
      atomics,                                                                                                        \
      "more atomics than blocks, the busiest L2 slice taking at least 4 times its share (few addresses); gain: that " \
      "slice's atomic sectors beyond an even spread at one address's measured rate, over the kernel's time; at most " \
      "1 - 1/skew")                                                                                                   \
    X("occupancy_registers", CAUSE, UNIT_LATENCY, IN_BLOCKS_BY_REGISTERS,                                              \
      "blocks per SM by registers, shared memory and block size",                                                      \
      occupancy_registers,                                                                                            \
      "registers set the blocks an SM holds, below what the other limits allow, in a grid of a wave or more; gain: "  \
      "the warps lost over those allowed x the share of time no unit is busy")                                        \
    X("occupancy_shared_memory", CAUSE, UNIT_LATENCY, IN_BLOCKS_BY_SHARED,                                             \
      "blocks per SM by registers, shared memory and block size",                                                      \
      occupancy_shared, "the same where shared memory sets them")                                                    \
    X("occupancy_block_size", CAUSE, UNIT_LATENCY, IN_BLOCKS_BY_BLOCK_SIZE,                                            \
      "blocks per SM by registers, shared memory and block size",                                                      \
      occupancy_block_size, "the same where the SM's block or warp count, by the block's size, sets them")           \
    X("too_few_blocks", CAUSE, UNIT_BOUND, IN_BLOCKS_LAUNCHED,                                                         \
      "blocks_launched, sm_count, duration_ms", too_few_blocks,                                                        \
      "fewer blocks than SMs (kernels of 10 us or more); gain: the idle SMs' share")                                 \
    X("partial_last_wave", CAUSE, UNIT_BOUND, IN_BLOCKS_LAUNCHED,                                                      \
      "blocks_launched, blocks per SM, sm_count, duration_ms",                                                         \
      partial_wave, "more than one wave of blocks, the last partial; gain: the empty slots of the last wave over "   \
                    "all waves' slots, times the bound unit's idle share where it is L1, L2 or DRAM")                 \
    X("launch_overhead", CAUSE, UNIT_BOUND, IN_DURATION_MS, "duration_ms", launch_overhead,                            \
      "a kernel shorter than 10 us; gain: an assumed 3 us launch cost over launch and kernel; it counts against the "\
      "limiter, whose busy share over a few microseconds is a ramp, not a steady state")                            \
    X("fp64_in_fp32_kernel", CAUSE, UNIT_ARITHMETIC, IN_CONVERSIONS_PER_FP64_OP,                                       \
      "flop_fp64, conversions_per_fp64_op, flop_fp32, pipes",                                                          \
      fp64_in_fp32,                                                                                                   \
      "FP64 operations with at least 0.25 type conversions each (FP32 values widened); gain: the FP64 operations' "  \
      "and conversions' share of the arithmetic x the busiest of issue slots, FMA and FP64 pipes, or the "            \
      "conversions' share of the XU pipe where larger")                                                               \
    X("dram_bound", BOUND, UNIT_DRAM, NO_INPUT, "the limiter", bound,                                                  \
      "the limiter is DRAM; gain: DRAM's busy share less the cause findings' gains on DRAM, at most 1 less the "     \
      "next-busiest unit's share")                                                                                    \
    X("l2_bound", BOUND, UNIT_L2, NO_INPUT, "the limiter", bound, "the same for the L2")                               \
    X("l1_bound", BOUND, UNIT_L1, NO_INPUT, "the limiter", bound, "the same for L1/shared")                            \
    X("issue_bound", BOUND, UNIT_ISSUE, NO_INPUT, "the limiter", bound, "the same for the issue slots")                \
    X("fma_bound", BOUND, UNIT_FMA, NO_INPUT, "the limiter", bound, "the same for the FMA pipe")                       \
    X("fp64_bound", BOUND, UNIT_FP64, NO_INPUT, "the limiter", bound, "the same for the FP64 pipe")                    \
    X("tensor_bound", BOUND, UNIT_TENSOR, NO_INPUT, "the limiter", bound, "the same for the tensor pipe")              \
    X("latency_bound", BOUND, UNIT_LATENCY, NO_INPUT, "the limiter", bound,                                            \
      "no unit at 60 % of its peak; gain: the time no unit is busy less the latency cause findings' gains")

struct rule {
    const char *name;
    enum kind kind;
    int unit, needs;
    const char *reads;
    bool (*applies)(const struct judge *j, int unit);
    double (*gain)(const struct judge *j, int unit);
    void (*say)(const struct judge *j, int unit, struct finding *f);
    const char *doc;
};

#define RULE_ROW(name, kind, unit, needs, reads, stem, doc)                                                           \
    {name, kind, unit, needs, reads, applies_##stem, gain_##stem, say_##stem, doc},
static const struct rule rules[] = {FINDING_RULES(RULE_ROW)};
#undef RULE_ROW
#define N_RULES ((int)(sizeof rules / sizeof rules[0]))
_Static_assert(sizeof rules / sizeof rules[0] == FINDING_MAX, "FINDING_MAX is the number of rules");

int finding_rule_count(void)
{
    return N_RULES;
}

const char *finding_rule_name(int i)
{
    return rules[i].name;
}

const char *finding_rule_reads(int i)
{
    return rules[i].reads;
}

const char *finding_rule_doc(int i)
{
    return rules[i].doc;
}

/* The inputs a rule reads beyond the one it is listed under whose lack leaves it unjudged too: the wave rules count
 * blocks against the SMs, and the blocks an SM holds, from the GPU's facts (a profile from before memscope-profile
 * stored them has its blocks launched and not the SMs). */
static const struct {
    const char *rule;
    int input;
} also_needs[] = {{"too_few_blocks", IN_SM_COUNT},
                  {"partial_last_wave", IN_SM_COUNT},
                  {"partial_last_wave", IN_BLOCKS_BY_REGISTERS},
                  {"partial_last_wave", IN_BLOCKS_BY_SHARED},
                  {"partial_last_wave", IN_BLOCKS_BY_BLOCK_SIZE}};

static bool judged(const double values[DIAGNOSIS_INPUT_COUNT], int i)
{
    if (rules[i].needs != NO_INPUT && isnan(values[rules[i].needs]))
        return false;
    for (size_t k = 0; k < sizeof also_needs / sizeof also_needs[0]; ++k)
        if (strcmp(also_needs[k].rule, rules[i].name) == 0 && isnan(values[also_needs[k].input]))
            return false;
    return true;
}

int findings_unjudged(const double values[DIAGNOSIS_INPUT_COUNT], char *out, size_t len)
{
    int n = 0;
    size_t used = 0;
    *out = '\0';
    for (int i = 0; i < N_RULES; ++i)
        if (!judged(values, i) && used < len) {
            used += (size_t)snprintf(out + used, len - used, "%s%s", n ? ", " : "", rules[i].name);
            ++n;
        }
    return n;
}

/* ---- lines ---- */

void finding_lines_init(struct finding_lines *w)
{
    memset(w, 0, sizeof *w);
}

/* Instructions without a line (file "", a kernel built without line information) count in the total only. */
static void note_worst(struct worst_line *w, const struct line_counts *l, double excess)
{
    const char *slash = strrchr(l->file, '/');
    w->total += excess;
    if (l->file[0] && excess > w->excess) {
        w->excess = excess;
        snprintf(w->where, sizeof w->where, "%s:%d", slash ? slash + 1 : l->file, l->line);
    }
}

/* The part of a line's excess that is its loads' (share of the loads in its sectors or wavefronts). */
static double loads_part(double excess, double loads, double stores)
{
    return loads + stores > 0 ? excess * loads / (loads + stores) : 0.0;
}

void finding_lines_add(struct finding_lines *w, const struct line_counts *l)
{
    double global_ld = loads_part(l->global_excess_sectors, l->global_ld_sectors, l->global_st_sectors);
    double shared_ld = loads_part(l->shared_excess_wavefronts, l->shared_ld_wavefronts, l->shared_st_wavefronts);
    w->any = true;
    w->placed |= l->file[0] != '\0';
    note_worst(&w->global_ld, l, global_ld);
    note_worst(&w->global_st, l, l->global_ld_sectors + l->global_st_sectors > 0 ? l->global_excess_sectors - global_ld : 0);
    note_worst(&w->shared_ld, l, shared_ld);
    note_worst(&w->shared_st, l,
               l->shared_ld_wavefronts + l->shared_st_wavefronts > 0 ? l->shared_excess_wavefronts - shared_ld : 0);
    note_worst(&w->predicated_off, l, l->predicated_off_lanes);
    note_worst(&w->conversions, l, l->conversions);
}

/* ---- the inputs a results folder and a run share ---- */

void findings_launch_inputs(const struct sm_limits *sm, double sm_count, double registers_per_thread,
                            double shared_per_block, double threads_per_block, double values[DIAGNOSIS_INPUT_COUNT])
{
    struct occupancy_limits o;
    occupancy_limits(sm, registers_per_thread, shared_per_block, threads_per_block, &o);
    values[IN_SM_COUNT] = sm_count;
    values[IN_SM_MAX_WARPS] = sm->max_warps;
    values[IN_THREADS_PER_BLOCK] = threads_per_block;
    values[IN_REGISTERS] = registers_per_thread;
    values[IN_BLOCKS_BY_REGISTERS] = o.by_registers;
    values[IN_BLOCKS_BY_SHARED] = o.by_shared;
    values[IN_BLOCKS_BY_BLOCK_SIZE] = o.by_block_size;
}

/* The lines split the source group's excess between loads and stores. */
void findings_shared_inputs(const struct finding_lines *lines, double exact_wavefronts, const double estimate[2],
                            const double hardware[2], double wavefronts, double values[DIAGNOSIS_INPUT_COUNT])
{
    if (lines && lines->any && !isnan(exact_wavefronts)) {
        values[IN_SHARED_LD_EXCESS] = lines->shared_ld.total;
        values[IN_SHARED_ST_EXCESS] = lines->shared_st.total;
        values[IN_SHARED_WAVEFRONTS] = exact_wavefronts;
        return;
    }
    values[IN_SHARED_LD_EXCESS] = diagnosis_shared_excess_bound(estimate[0], hardware[0]);
    values[IN_SHARED_ST_EXCESS] =
        isnan(values[IN_SHARED_LD_EXCESS]) ? NAN : diagnosis_shared_excess_bound(estimate[1], hardware[1]);
    values[IN_SHARED_WAVEFRONTS] = wavefronts;
}

/* ---- ranking ---- */

struct ranked {
    struct finding f;
    int rule, unit;
};

static int by_gain(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    if (x->f.gain_pct != y->f.gain_pct)
        return x->f.gain_pct > y->f.gain_pct ? -1 : 1;
    return x->rule - y->rule;
}

/* The bound finding goes after the last cause finding of at least FINDING_MATERIAL_GAIN_PCT on its unit (any unit
 * for latency_bound): those say how to relieve that unit. */
static void place_bound(struct ranked *r, int n)
{
    int bound = -1, last = -1;
    for (int i = 0; i < n; ++i)
        if (rules[r[i].rule].kind == BOUND)
            bound = i;
    for (int i = 0; bound >= 0 && i < n; ++i)
        if (rules[r[i].rule].kind == CAUSE && r[i].f.gain_pct >= FINDING_MATERIAL_GAIN_PCT &&
            (r[i].unit == r[bound].unit || r[bound].unit == UNIT_LATENCY))
            last = i;
    if (last > bound) {
        struct ranked moved = r[bound];
        memmove(&r[bound], &r[bound + 1], (size_t)(last - bound) * sizeof *r);
        r[last] = moved;
    }
}

/* ---- the judge ---- */

static int unit_of_input(int input)
{
    switch (input) {
    case IN_SOL_L1:
        return UNIT_L1;
    case IN_SOL_L2:
        return UNIT_L2;
    case IN_SOL_DRAM:
        return UNIT_DRAM;
    case IN_FMA_PIPE:
        return UNIT_FMA;
    case IN_FP64_PIPE:
    case IN_FP64_TENSOR_PIPE:
        return UNIT_FP64;
    case IN_TENSOR_PIPE:
        return UNIT_TENSOR;
    case IN_ISSUE_SLOTS:
        return UNIT_ISSUE;
    case IN_XU_PIPE:
        return UNIT_XU;
    case DIAGNOSIS_LATENCY:
        return UNIT_LATENCY;
    default:
        return -1;
    }
}

/* A kernel without a steady state (diagnosis.h) has no unit shares: the rules that weigh by them do not fire. */
static void judge_init(struct judge *j, const double *v, const struct diagnosis *d, const struct finding_lines *lines)
{
    static const int inputs[UNIT_LATENCY] = {IN_SOL_L1,    IN_SOL_L2,      IN_SOL_DRAM,    IN_FMA_PIPE,
                                             IN_FP64_PIPE, IN_TENSOR_PIPE, IN_ISSUE_SLOTS, IN_XU_PIPE};
    double busiest = NAN;
    memset(j, 0, sizeof *j);
    j->v = v;
    j->d = d;
    j->lines = lines;
    j->bound_unit = unit_of_input(d->unit);
    for (int u = 0; u < UNIT_COUNT; ++u)
        j->share[u] = NAN;
    /* judged here, not read from the limiter: one "not collected" has not been through diagnose()'s check */
    if (!diagnosis_steady_state(v, NULL, 0))
        return;
    for (int u = 0; u < UNIT_LATENCY; ++u) {
        j->share[u] = v[inputs[u]] / 100.0;
        if (u == UNIT_FP64 && isnan(j->share[u])) /* a run before the FP64 and tensor pipes were measured apart */
            j->share[u] = v[IN_FP64_TENSOR_PIPE] / 100.0;
        if (!isnan(j->share[u]) && !(j->share[u] <= busiest))
            busiest = j->share[u];
    }
    j->share[UNIT_LATENCY] = isnan(busiest) ? NAN : fmax(0.0, 1.0 - busiest);
}

/* A rule's finding into r when it fires with a gain worth naming (a bound finding whatever its gain). */
static bool judge_rule(struct judge *j, int i, struct ranked *r)
{
    const struct rule *rule = &rules[i];
    int unit = resolve(j, rule->unit);
    if (!rule->applies(j, unit))
        return false;
    double gain = rule->gain(j, unit);
    if (isnan(gain) || (rule->kind == CAUSE && gain < MIN_GAIN_PCT))
        return false;
    memset(r, 0, sizeof *r);
    r->rule = i;
    r->unit = unit;
    r->f.cause = rule->name;
    r->f.gain_pct = gain;
    r->f.global = rule->kind == BOUND || unit == j->bound_unit;
    rule->say(j, unit, &r->f);
    return true;
}

int diagnose_findings(const double values[DIAGNOSIS_INPUT_COUNT], const char *tensor_type,
                      const struct finding_lines *lines, struct finding out[], int max)
{
    struct diagnosis d;
    struct judge j;
    struct ranked ranked[FINDING_MAX];
    int n = 0;
    diagnose(values, tensor_type, &d);
    judge_init(&j, values, &d, lines);
    j.tensor = tensor_type && *tensor_type;
    for (int pass = CAUSE; pass <= BOUND; ++pass) /* the bound rules read what the causes explained */
        for (int i = 0; i < N_RULES; ++i)
            if ((int)rules[i].kind == pass && judge_rule(&j, i, &ranked[n])) {
                if (pass == CAUSE)
                    j.explained[ranked[n].unit] += ranked[n].f.gain_pct;
                ++n;
            }
    qsort(ranked, (size_t)n, sizeof *ranked, by_gain);
    place_bound(ranked, n);
    for (int i = 0; i < n && i < max; ++i)
        out[i] = ranked[i].f;
    return n < max ? n : max;
}
