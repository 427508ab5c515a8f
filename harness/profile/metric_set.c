#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "metric_set.h"

struct metric_group {
    const char *name;
    const char *what;
    const char *const *metrics;
};

static const char *const global_metrics[] = {
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
    /* Instrumented, like the efficiencies: they share one pass, where the hardware counters l1tex__t_sectors_* and
     * l1tex__t_requests_* need two more of their own, about 25 ms per profiled call on an H100. */
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
    NULL,
};
static const char *const shared_metrics[] = {
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_data_bytes_mem_shared_op_ld.sum",
    "smsp__sass_data_bytes_mem_shared_op_st.sum",
    NULL,
};
static const char *const dram_metrics[] = {
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__time_duration.sum",
    NULL,
};
static const char *const roofline_metrics[] = {
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "gpu__time_duration.sum",
    NULL,
};
static const char *const cache_metrics[] = {
    "l1tex__t_sector_hit_rate.pct",
    "lts__t_sector_hit_rate.pct",
    NULL,
};

static const struct metric_group groups[] = {
    {"global", "global load/store efficiency, sectors and requests", global_metrics},
    {"shared", "shared-memory bank conflicts: hardware counter and instrumented wavefronts", shared_metrics},
    {"dram", "DRAM bytes, throughput and kernel duration", dram_metrics},
    {"roofline", "executed FP32/FP64 operations and achieved occupancy", roofline_metrics},
    {"cache", "L1 and L2 sector hit rates", cache_metrics},
};
#define N_GROUPS (sizeof groups / sizeof groups[0])

void metric_groups_print(FILE *f)
{
    for (size_t g = 0; g < N_GROUPS; ++g) {
        fprintf(f, "%-9s %s\n", groups[g].name, groups[g].what);
        for (const char *const *m = groups[g].metrics; *m; ++m)
            fprintf(f, "          %s\n", *m);
    }
}

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
    for (size_t g = 0; g < N_GROUPS; ++g) {
        if (!all && strcmp(name, groups[g].name) != 0)
            continue;
        known = true;
        for (const char *const *m = groups[g].metrics; *m; ++m)
            if (add_metric(s, *m, e))
                return e->code;
    }
    if (!known)
        return error_set(e, EXIT_USAGE, "--metric-groups: unknown group '%s' (groups: global, shared, dram, roofline, "
                                        "cache, all, none)", name);
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

int metric_set_build(const char *group_list, const char *extra, struct metric_set *out, struct error *e)
{
    memset(out, 0, sizeof *out);
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

#define GET(name) metric_lookup(names, values, n, name)

/* Ideal shared wavefronts: one per instruction, or one per 128 bytes where accesses are wider than 32 bits. */
static double ideal_wavefronts(double instructions, double bytes)
{
    return isnan(bytes) ? instructions : fmax(instructions, bytes / 128.0);
}

int metrics_derive(const char *const *names, const double *values, int n, struct derived_metric *out)
{
    double ns = GET("gpu__time_duration.sum");
    double ld_exact = GET("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") -
                      ideal_wavefronts(GET("smsp__sass_inst_executed_op_shared_ld.sum"),
                                       GET("smsp__sass_data_bytes_mem_shared_op_ld.sum"));
    double st_exact = GET("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum") -
                      ideal_wavefronts(GET("smsp__sass_inst_executed_op_shared_st.sum"),
                                       GET("smsp__sass_data_bytes_mem_shared_op_st.sum"));
    double dram = GET("dram__bytes_read.sum") + GET("dram__bytes_write.sum");
    double fp32 = GET("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum") +
                  GET("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum") +
                  2.0 * GET("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum");
    double fp64 = GET("smsp__sass_thread_inst_executed_op_dadd_pred_on.sum") +
                  GET("smsp__sass_thread_inst_executed_op_dmul_pred_on.sum") +
                  2.0 * GET("smsp__sass_thread_inst_executed_op_dfma_pred_on.sum");
    const struct derived_metric derived[] = {
        {"global_load_efficiency", "%", GET("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct")},
        {"global_store_efficiency", "%", GET("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct")},
        {"sectors_per_request_ld", "sector/request",
         GET("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum") /
             GET("smsp__sass_inst_executed_op_global_ld.sum")},
        {"sectors_per_request_st", "sector/request",
         GET("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum") /
             GET("smsp__sass_inst_executed_op_global_st.sum")},
        {"shared_ld_wavefronts_per_inst", "wavefront/instruction",
         GET("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") /
             GET("smsp__sass_inst_executed_op_shared_ld.sum")},
        {"shared_st_wavefronts_per_inst", "wavefront/instruction",
         GET("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum") /
             GET("smsp__sass_inst_executed_op_shared_st.sum")},
        {"shared_conflicts_exact_ld", "wavefront", ld_exact},
        {"shared_conflicts_exact_st", "wavefront", st_exact},
        {"shared_conflicts_exact", "wavefront", ld_exact + st_exact},
        {"shared_conflicts_hw", "conflict",
         GET("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") +
             GET("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")},
        {"dram_bytes", "byte", dram},
        {"dram_gbs", "GB/s", dram / ns},
        {"dram_pct_of_peak", "%", GET("dram__throughput.avg.pct_of_peak_sustained_elapsed")},
        {"duration_ms", "ms", ns * 1e-6},
        {"flop_fp32", "flop", fp32},
        {"flop_fp64", "flop", fp64},
        {"achieved_gflops", "GFLOP/s", (fp32 + fp64) / ns},
        {"arithmetic_intensity", "flop/byte", (fp32 + fp64) / dram},
        {"achieved_occupancy", "%", GET("sm__warps_active.avg.pct_of_peak_sustained_active")},
        {"l1_hit_rate", "%", GET("l1tex__t_sector_hit_rate.pct")},
        {"l2_hit_rate", "%", GET("lts__t_sector_hit_rate.pct")},
    };
    int count = (int)(sizeof derived / sizeof derived[0]);
    memcpy(out, derived, sizeof derived);
    return count;
}
