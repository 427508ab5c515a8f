#include <string.h>

#include "metric_catalog.h"

struct metric_traits {
    const char *name;
    unsigned groups;  /* collected metrics: the groups that collect it */
    const char *unit; /* derived metrics: collected ones take CUPTI's unit */
    bool deterministic;
    const char *what;
};

#define COLLECTED_TRAITS(id, name, groups, deterministic, what) {name, groups, NULL, deterministic, what},
#define DERIVED_TRAITS(id, name, unit, deterministic, what) {name, 0, unit, deterministic, what},
static const struct metric_traits collected[] = {COLLECTED_METRICS(COLLECTED_TRAITS)};
static const struct metric_traits derived[] = {DERIVED_METRICS(DERIVED_TRAITS)};

static const struct metric_group groups[] = {
    {"global", "global load/store efficiency, sectors and requests", GROUP_GLOBAL},
    {"shared", "shared-memory bank conflicts: hardware counter and instrumented wavefronts", GROUP_SHARED},
    {"dram", "DRAM bytes, throughput and kernel duration", GROUP_DRAM},
    {"roofline", "executed FP32/FP64 operations, achieved occupancy, L2 and L1/shared traffic; the run also measures "
                 "the GPU's ceilings", GROUP_ROOFLINE},
    {"cache", "L1 and L2 sector hit rates", GROUP_CACHE},
    {"sol", "speed of light: SM, memory, L1/shared, L2 and DRAM throughput, FMA, tensor and FP64 pipes, issue slots",
     GROUP_SOL},
    {"tensor", "tensor-core operations by source type and instruction family, tensor instructions", GROUP_TENSOR},
    {"causes", "what the findings' rules read: local-memory sectors, atomics and their spread over the L2's slices, "
               "branches and active lanes, conversions, blocks launched", GROUP_CAUSES},
    {"source", "per-instruction counts by source line (lines.csv) and exact bank conflicts", GROUP_SOURCE},
    {"stalls", "warp stall reasons by PC sampling, per kernel and source line (stalls.csv)", GROUP_STALLS},
};

const char *collected_metric_name(enum collected_metric id)
{
    return collected[id].name;
}

const char *derived_metric_name(enum derived_metric_id id)
{
    return derived[id].name;
}

const char *derived_metric_unit(enum derived_metric_id id)
{
    return derived[id].unit;
}

int deterministic_metrics(const char *names[], int max)
{
    int n = 0;
    for (int i = 0; i < COLLECTED_METRIC_COUNT && n < max; ++i)
        if (collected[i].deterministic)
            names[n++] = collected[i].name;
    for (int i = 0; i < DERIVED_METRIC_COUNT && n < max; ++i)
        if (derived[i].deterministic)
            names[n++] = derived[i].name;
    return n;
}

bool metric_timing_steered(const char *name)
{
#define STEERED_NAME(kind, id) kind(id),
    const char *const steered[] = {TIMING_STEERED_METRICS(STEERED_NAME)};
#undef STEERED_NAME
    for (size_t i = 0; i < sizeof steered / sizeof *steered; ++i)
        if (strcmp(name, steered[i]) == 0)
            return true;
    return false;
}

const struct metric_group *metric_groups(int *count)
{
    *count = (int)(sizeof groups / sizeof groups[0]);
    return groups;
}

int metric_group_members(unsigned bit, const char *members[], int max)
{
    int n = 0;
    for (int i = 0; i < COLLECTED_METRIC_COUNT && n < max; ++i)
        if (collected[i].groups & bit)
            members[n++] = collected[i].name;
    return n;
}

void metric_groups_print(FILE *f)
{
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; ++g) {
        fprintf(f, "%-9s %s\n", groups[g].name, groups[g].what);
        for (int i = 0; i < COLLECTED_METRIC_COUNT; ++i)
            if (collected[i].groups & groups[g].bit)
                fprintf(f, "          %-64s %s\n", collected[i].name, collected[i].what);
    }
    fprintf(f, "derived   computed from the collected metrics, in metrics.csv\n");
    for (int i = 0; i < DERIVED_METRIC_COUNT; ++i)
        fprintf(f, "          %-64s %s (%s)\n", derived[i].name, derived[i].what, derived[i].unit);
}
