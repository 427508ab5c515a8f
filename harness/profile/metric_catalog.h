/*
 * The metric catalog: every metric memscope knows, collected or derived, with
 * its traits, defined once. The metric groups, the derived metrics' names and
 * units, and which counts the comparison holds exact are all read from here.
 *
 * Collected: X(ID, "Perfworks name", groups, deterministic, "what it counts").
 * Derived:   X(ID, "name", "unit", deterministic, "what it is").
 * A deterministic metric is fixed by the code and the size alone (instruction
 * and sector counts): any change is the code's doing, and more is more work.
 */
#ifndef MEMSCOPE_METRIC_CATALOG_H
#define MEMSCOPE_METRIC_CATALOG_H

#include <stdbool.h>
#include <stdio.h>

#define GROUP_GLOBAL (1u << 0)
#define GROUP_SHARED (1u << 1)
#define GROUP_DRAM (1u << 2)
#define GROUP_ROOFLINE (1u << 3)
#define GROUP_CACHE (1u << 4)
/* Per-instruction counters through CUPTI's SASS metrics (harness/source/), not range-profiler metrics. */
#define GROUP_SOURCE (1u << 5)
/* Speed of light: each unit's throughput as a share of its peak, the figures Nsight Compute's SpeedOfLight
 * section opens with (same names), plus the FMA pipe and the issue slots. */
#define GROUP_SOL (1u << 6)
/* Warp stall reasons through CUPTI's PC sampling (harness/stalls/), not range-profiler metrics. */
#define GROUP_STALLS (1u << 7)
/* Tensor-core work: operations per source type and per instruction family (wgmma = hgmma/gmma, mma.sync = hmma),
 * counted by operation, not instruction (FLOPs per instruction depend on its shape): a GEMM's counter reads
 * 2 x M x N x K, or the tile-padded work where the shape is not a multiple of the kernel's tile. */
#define GROUP_TENSOR (1u << 8)
/* What the findings' rules (harness/diagnose/findings.c) read beyond the other groups: local-memory sectors, global
 * atomics and how they spread over the L2's slices, divergent branches, active and predicated-on lanes, type
 * conversions and the XU pipe they run on, blocks launched. Six instrumented counts (one pass between them) and nine
 * hardware counters: added to the default groups they take no pass more on GH100 (by CUPTI's host API); alone, 2
 * passes. */
#define GROUP_CAUSES (1u << 9)
/* Not in a group: added with --metrics; runs before 2026-11-21 collected them by default. */
#define GROUP_NONE 0u

/* The global counts are instrumented, like the efficiencies: they share one pass, where the hardware counters
 * l1tex__t_sectors_* and l1tex__t_requests_* need two more of their own, about 25 ms per profiled call (H100). */
#define COLLECTED_METRICS(X)                                                                                          \
    X(GLOBAL_LD_BYTES_PER_SECTOR_PCT, "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", GROUP_GLOBAL,  \
      false, "global load efficiency: bytes used per sector fetched")                                                 \
    X(GLOBAL_ST_BYTES_PER_SECTOR_PCT, "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", GROUP_GLOBAL,  \
      false, "global store efficiency")                                                                               \
    X(GLOBAL_LD_SECTORS, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum", GROUP_GLOBAL, true,               \
      "global load sectors (instrumented)")                                                                           \
    X(GLOBAL_LD_REQUESTS, "smsp__sass_inst_executed_op_global_ld.sum", GROUP_GLOBAL, true,                            \
      "global load instructions (requests)")                                                                          \
    X(GLOBAL_ST_SECTORS, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum", GROUP_GLOBAL, true,               \
      "global store sectors (instrumented)")                                                                          \
    X(GLOBAL_ST_REQUESTS, "smsp__sass_inst_executed_op_global_st.sum", GROUP_GLOBAL, true,                            \
      "global store instructions (requests)")                                                                         \
    X(HW_GLOBAL_LD_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", GROUP_NONE, true,                        \
      "global load sectors (hardware counter)")                                                                       \
    X(HW_GLOBAL_ST_SECTORS, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", GROUP_NONE, true,                        \
      "global store sectors (hardware counter)")                                                                      \
    X(HW_GLOBAL_LD_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", GROUP_NONE, true,                      \
      "global load requests (hardware counter)")                                                                      \
    X(HW_GLOBAL_ST_REQUESTS, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", GROUP_NONE, true,                      \
      "global store requests (hardware counter)")                                                                     \
    X(SHARED_LD_CONFLICTS_HW, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", GROUP_SHARED, false,        \
      "shared load bank conflicts (hardware counter: over-counts)")                                                   \
    X(SHARED_ST_CONFLICTS_HW, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", GROUP_SHARED, false,        \
      "shared store bank conflicts (hardware counter: over-counts)")                                                  \
    X(SHARED_LD_WAVEFRONTS, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", GROUP_SHARED, true,     \
      "shared load wavefronts (instrumented)")                                                                        \
    X(SHARED_ST_WAVEFRONTS, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", GROUP_SHARED, true,     \
      "shared store wavefronts (instrumented)")                                                                       \
    X(SHARED_LD_INSTRUCTIONS, "smsp__sass_inst_executed_op_shared_ld.sum", GROUP_SHARED, true,                        \
      "shared load instructions")                                                                                     \
    X(SHARED_ST_INSTRUCTIONS, "smsp__sass_inst_executed_op_shared_st.sum", GROUP_SHARED, true,                        \
      "shared store instructions")                                                                                    \
    X(SHARED_LD_BYTES, "smsp__sass_data_bytes_mem_shared_op_ld.sum", GROUP_SHARED, false, "shared bytes loaded")      \
    X(SHARED_ST_BYTES, "smsp__sass_data_bytes_mem_shared_op_st.sum", GROUP_SHARED, false, "shared bytes stored")      \
    X(LDSM_WAVEFRONTS, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", GROUP_SHARED, true,        \
      "ldmatrix wavefronts (instrumented; not in the shared load wavefronts)")                                       \
    X(LDSM_INSTRUCTIONS, "smsp__sass_inst_executed_op_ldsm.sum", GROUP_SHARED, true, "ldmatrix instructions")         \
    X(LDSM_BYTES, "smsp__sass_data_bytes_mem_shared_op_ldsm.sum", GROUP_SHARED, false, "shared bytes ldmatrix read")  \
    X(DRAM_BYTES_READ, "dram__bytes_read.sum", GROUP_DRAM, false, "DRAM bytes read")                                  \
    X(DRAM_BYTES_WRITE, "dram__bytes_write.sum", GROUP_DRAM, false, "DRAM bytes written")                             \
    X(DRAM_THROUGHPUT_PCT, "dram__throughput.avg.pct_of_peak_sustained_elapsed", GROUP_DRAM, false,                   \
      "DRAM throughput, % of peak")                                                                                   \
    X(FADD, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", GROUP_ROOFLINE, false, "FP32 adds (thread level)") \
    X(FMUL, "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", GROUP_ROOFLINE, false, "FP32 multiplies")         \
    X(FFMA, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", GROUP_ROOFLINE, true, "FP32 fused multiply-adds") \
    X(DADD, "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", GROUP_ROOFLINE, false, "FP64 adds")               \
    X(DMUL, "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", GROUP_ROOFLINE, false, "FP64 multiplies")         \
    X(DFMA, "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", GROUP_ROOFLINE, true, "FP64 fused multiply-adds") \
    X(WARPS_ACTIVE_PCT, "sm__warps_active.avg.pct_of_peak_sustained_active", GROUP_ROOFLINE, false,                   \
      "achieved occupancy")                                                                                           \
    X(DURATION_NS, "gpu__time_duration.sum", GROUP_DRAM | GROUP_ROOFLINE, false, "kernel duration")                   \
    X(LTS_BYTES, "lts__t_bytes.sum", GROUP_ROOFLINE, false, "L2 bytes: every request L2 served, read and written")    \
    X(L1_DATA_WAVEFRONTS, "l1tex__data_pipe_lsu_wavefronts.sum", GROUP_ROOFLINE, false,                               \
      "L1/shared data-stage wavefronts, global and shared")                                                           \
    X(L1_HIT_RATE, "l1tex__t_sector_hit_rate.pct", GROUP_CACHE, false, "L1 sector hit rate")                          \
    X(L2_HIT_RATE, "lts__t_sector_hit_rate.pct", GROUP_CACHE, false, "L2 sector hit rate")                          \
    X(SOL_SM, "sm__throughput.avg.pct_of_peak_sustained_elapsed", GROUP_SOL, false, "SM throughput, % of peak")      \
    X(SOL_MEMORY, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", GROUP_SOL, false,              \
      "memory throughput (the busiest of L1, L2 and DRAM), % of peak")                                               \
    X(SOL_L1, "l1tex__throughput.avg.pct_of_peak_sustained_active", GROUP_SOL, false,                                 \
      "L1/shared throughput, % of peak while active")                                                                 \
    X(SOL_L2, "lts__throughput.avg.pct_of_peak_sustained_elapsed", GROUP_SOL, false, "L2 throughput, % of peak")     \
    X(SOL_DRAM, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", GROUP_SOL, false,                           \
      "DRAM throughput, % of peak")                                                                                   \
    X(FMA_PIPE, "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", GROUP_SOL, false,                      \
      "FMA pipe busy, % of active cycles")                                                                            \
    X(ISSUE_SLOTS, "sm__inst_issued.avg.pct_of_peak_sustained_active", GROUP_SOL, false,                              \
      "issue slots used, % of active cycles")                                                                         \
    X(TENSOR_PIPE, "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", GROUP_SOL, false,                \
      "tensor pipe busy (any type, wgmma and mma.sync), % of active cycles")                                          \
    X(FP64_PIPE, "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active", GROUP_SOL, false,                    \
      "FP64 pipe busy (DFMA, DADD, DMUL and FP64 tensor DMMA), % of active cycles")                                  \
    X(TENSOR_OPS_BF16, "sm__ops_path_tensor_src_bf16_dst_fp32.sum", GROUP_TENSOR, true,                               \
      "tensor operations, bf16 inputs, FP32 accumulation (2 per multiply-add)")                                      \
    X(TENSOR_OPS_FP16, "sm__ops_path_tensor_src_fp16.sum", GROUP_TENSOR, true,                                        \
      "tensor operations, fp16 inputs (FP16 or FP32 accumulation)")                                                   \
    X(TENSOR_OPS_TF32, "sm__ops_path_tensor_src_tf32_dst_fp32.sum", GROUP_TENSOR, true,                               \
      "tensor operations, tf32 inputs, FP32 accumulation")                                                            \
    X(TENSOR_OPS_FP8, "sm__ops_path_tensor_src_fp8.sum", GROUP_TENSOR, true, "tensor operations, fp8 inputs")         \
    X(TENSOR_OPS_INT8, "sm__ops_path_tensor_src_int8.sum", GROUP_TENSOR, true, "tensor operations, int8 inputs")      \
    X(TENSOR_OPS_FP64, "sm__ops_path_tensor_src_fp64.sum", GROUP_TENSOR, true, "tensor operations, FP64 (DMMA)")      \
    X(TENSOR_OPS_HGMMA_BF16, "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32_sparsity_off.sum", GROUP_TENSOR, true,   \
      "bf16 tensor operations by wgmma (dense)")                                                                      \
    X(TENSOR_OPS_HMMA_BF16, "sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32_sparsity_off.sum", GROUP_TENSOR, true,     \
      "bf16 tensor operations by mma.sync (dense)")                                                                   \
    X(TENSOR_INST_GMMA, "sm__inst_executed_pipe_tensor_op_gmma.sum", GROUP_TENSOR, true,                              \
      "wgmma instructions (warp level)")                                                                              \
    X(TENSOR_INST_HMMA, "sm__inst_executed_pipe_tensor_op_hmma.sum", GROUP_TENSOR, true,                              \
      "mma.sync instructions (warp level)")                                                                           \
    X(LOCAL_LD_SECTORS, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_ld.sum", GROUP_CAUSES, true,                \
      "local-memory load sectors (register spills, local arrays)")                                                    \
    X(LOCAL_ST_SECTORS, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_st.sum", GROUP_CAUSES, true,                \
      "local-memory store sectors")                                                                                   \
    X(GLOBAL_ATOM_INSTRUCTIONS, "smsp__sass_inst_executed_op_global_atom.sum", GROUP_CAUSES, true,                    \
      "global atomic instructions that return a value (ATOM)")                                                        \
    X(GLOBAL_RED_INSTRUCTIONS, "smsp__sass_inst_executed_op_global_red.sum", GROUP_CAUSES, true,                      \
      "global reductions, atomics whose value is not used (RED)")                                                     \
    X(BRANCH_TARGETS_DIVERGENT, "smsp__sass_branch_targets_threads_divergent.sum", GROUP_CAUSES, true,                \
      "branch targets a warp's threads did not all take")                                                             \
    X(LANES_PER_INSTRUCTION, "smsp__thread_inst_executed_per_inst_executed.ratio", GROUP_CAUSES, false,               \
      "threads active per warp instruction executed")                                                                 \
    X(LANES_PRED_ON_PER_INSTRUCTION, "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio", GROUP_CAUSES,      \
      false, "threads active and not predicated off per warp instruction executed")                                  \
    X(CONVERSIONS, "smsp__sass_thread_inst_executed_op_conversion_pred_on.sum", GROUP_CAUSES, true,                   \
      "type conversions executed, thread level (F2F, I2F, F2I)")                                                      \
    X(XU_PIPE, "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", GROUP_CAUSES, false,                     \
      "XU pipe (type conversions, MUFU special functions) instructions, % of its peak while active")                 \
    X(XU_INSTRUCTIONS, "smsp__inst_executed_pipe_xu.sum", GROUP_CAUSES, true,                                          \
      "XU pipe instructions (warp level): type conversions and MUFU special functions")                              \
    X(BLOCKS_LAUNCHED, "sm__ctas_launched.sum", GROUP_CAUSES, true, "thread blocks launched (the grid)")               \
    X(L2_ATOM_SECTORS_MAX, "lts__t_sectors_op_atom.max", GROUP_CAUSES, false, "L2 atomic sectors, busiest slice")     \
    X(L2_ATOM_SECTORS_AVG, "lts__t_sectors_op_atom.avg", GROUP_CAUSES, false, "L2 atomic sectors, mean over slices")  \
    X(L2_RED_SECTORS_MAX, "lts__t_sectors_op_red.max", GROUP_CAUSES, false, "L2 reduction sectors, busiest slice")    \
    X(L2_RED_SECTORS_AVG, "lts__t_sectors_op_red.avg", GROUP_CAUSES, false, "L2 reduction sectors, mean over slices")

#define DERIVED_METRICS(X)                                                                                            \
    X(GLOBAL_LOAD_EFFICIENCY, "global_load_efficiency", "%", false, "global load efficiency")                         \
    X(GLOBAL_STORE_EFFICIENCY, "global_store_efficiency", "%", false, "global store efficiency")                      \
    X(SECTORS_PER_REQUEST_LD, "sectors_per_request_ld", "sector/request", false, "global load sectors per request")   \
    X(SECTORS_PER_REQUEST_ST, "sectors_per_request_st", "sector/request", false, "global store sectors per request")  \
    X(SHARED_LD_WAVEFRONTS_PER_INST, "shared_ld_wavefronts_per_inst", "wavefront/instruction", false,                  \
      "shared load wavefronts per instruction")                                                                       \
    X(SHARED_ST_WAVEFRONTS_PER_INST, "shared_st_wavefronts_per_inst", "wavefront/instruction", false,                  \
      "shared store wavefronts per instruction")                                                                      \
    X(LDSM_WAVEFRONTS_PER_INST, "ldsm_wavefronts_per_inst", "wavefront/instruction", false,                           \
      "ldmatrix wavefronts per instruction (x4: 4 without conflicts)")                                               \
    X(SHARED_EXCESS_ESTIMATE_LD, "shared_excess_wavefronts_estimate_ld", "wavefront", false,                       \
      "shared load wavefronts beyond an ideal estimated from kernel totals")                                         \
    X(SHARED_EXCESS_ESTIMATE_ST, "shared_excess_wavefronts_estimate_st", "wavefront", false,                       \
      "shared store wavefronts beyond an ideal estimated from kernel totals")                                        \
    X(SHARED_EXCESS_ESTIMATE, "shared_excess_wavefronts_estimate", "wavefront", true,                               \
      "shared wavefronts beyond an ideal estimated from kernel totals (the exact figure is the source group's)")    \
    X(SHARED_CONFLICTS_HW, "shared_conflicts_hw", "conflict", false, "bank conflicts by the hardware counter")         \
    X(DRAM_BYTES, "dram_bytes", "byte", false, "DRAM bytes read and written")                                         \
    X(DRAM_GBS, "dram_gbs", "GB/s", false, "DRAM throughput")                                                         \
    X(DRAM_PCT_OF_PEAK, "dram_pct_of_peak", "%", false, "DRAM throughput, % of peak")                                 \
    X(DURATION_MS, "duration_ms", "ms", false, "kernel duration")                                                     \
    X(FLOP_FP32, "flop_fp32", "flop", false, "FP32 operations executed (add + mul + 2 x fma)")                        \
    X(FLOP_FP64, "flop_fp64", "flop", false, "FP64 operations executed")                                              \
    X(ACHIEVED_GFLOPS, "achieved_gflops", "GFLOP/s", false, "executed operations per second")                         \
    X(ARITHMETIC_INTENSITY, "arithmetic_intensity", "flop/byte", false, "operations per DRAM byte")                   \
    X(L2_BYTES, "l2_bytes", "byte", false, "L2 bytes: every request the L2 served, read and written")                 \
    X(L1_SHARED_WAVEFRONT_BYTES, "l1_shared_wavefront_bytes", "byte", false,                                          \
      "128 x L1/shared data-stage wavefronts: the bytes that stage could have moved in them, the unit of its "         \
      "bandwidth ceiling")                                                                                            \
    X(ACHIEVED_OCCUPANCY, "achieved_occupancy", "%", false, "achieved occupancy")                                     \
    X(L1_HIT_RATE_PCT, "l1_hit_rate", "%", false, "L1 sector hit rate")                                               \
    X(L2_HIT_RATE_PCT, "l2_hit_rate", "%", false, "L2 sector hit rate")                                               \
    X(SOL_SM_PCT, "sol_sm_pct", "%", false, "speed of light: SM")                                                     \
    X(SOL_MEMORY_PCT, "sol_memory_pct", "%", false, "speed of light: memory")                                         \
    X(SOL_L1_PCT, "sol_l1_pct", "%", false, "speed of light: L1/shared")                                              \
    X(SOL_L2_PCT, "sol_l2_pct", "%", false, "speed of light: L2")                                                     \
    X(SOL_DRAM_PCT, "sol_dram_pct", "%", false, "speed of light: DRAM")                                               \
    X(FMA_PIPE_PCT, "fma_pipe_pct", "%", false, "FMA pipe busy")                                                      \
    X(ISSUE_SLOTS_PCT, "issue_slots_pct", "%", false, "issue slots used")                                            \
    X(TENSOR_PIPE_PCT, "tensor_pipe_pct", "%", false, "tensor pipe busy")                                           \
    X(FP64_PIPE_PCT, "fp64_pipe_pct", "%", false, "FP64 pipe busy")                                                   \
    X(FLOP_TENSOR_BF16, "flop_tensor_bf16", "flop", true, "bf16 tensor operations (2 per multiply-add)")              \
    X(FLOP_TENSOR_FP16, "flop_tensor_fp16", "flop", true, "fp16 tensor operations")                                   \
    X(FLOP_TENSOR_TF32, "flop_tensor_tf32", "flop", true, "tf32 tensor operations")                                   \
    X(FLOP_TENSOR_FP8, "flop_tensor_fp8", "flop", true, "fp8 tensor operations")                                      \
    X(FLOP_TENSOR_INT8, "flop_tensor_int8", "op", true, "int8 tensor operations (integer)")                           \
    X(FLOP_TENSOR_FP64, "flop_tensor_fp64", "flop", true, "FP64 tensor operations (DMMA)")                            \
    X(FLOP_TENSOR, "flop_tensor", "flop", true, "tensor operations, all source types")                               \
    X(TENSOR_GFLOPS, "tensor_gflops", "GFLOP/s", false, "tensor operations per second")                             \
    X(LOCAL_SECTORS, "local_sectors", "sector", true, "local-memory sectors, loads and stores")                       \
    X(GLOBAL_ATOMICS, "global_atomic_instructions", "instruction", true, "global atomics and reductions (warp level)") \
    X(L2_ATOMIC_SLICE_SKEW, "l2_atomic_slice_skew", "ratio", false,                                                   \
      "atomic and reduction sectors of the L2's busiest slice over its mean slice's: 1 when spread evenly, the "       \
      "number of slices when one address takes them all")                                                             \
    X(ACTIVE_LANES, "active_lanes_per_instruction", "thread/instruction", false,                                     \
      "threads active per warp instruction executed (32: no divergence, no idle lanes)")                              \
    X(DIVERGENT_BRANCHES, "divergent_branch_targets", "branch_target", true,                                          \
      "branch targets a warp's threads did not all take")                                                             \
    X(PREDICATED_ON_LANES, "predicated_on_lanes_per_instruction", "thread/instruction", false,                     \
      "threads active and not predicated off per warp instruction executed (below active_lanes_per_instruction: "   \
      "an if the compiler predicated)")                                                                               \
    X(CONVERSIONS_PER_FP64_OP, "conversions_per_fp64_op", "ratio", false,                                            \
      "type conversions per FP64 operation executed (FP32 values widened and narrowed)")                              \
    X(CONVERSION_COUNT, "conversions", "instruction", true,                                                          \
      "type conversions executed, thread level (integer division and modulo compile to two)")                       \
    X(XU_PIPE_PCT, "xu_pipe_pct", "%", false, "XU pipe (conversions, special functions) busy")                       \
    X(XU_CONVERSION_SHARE, "xu_conversion_share_pct", "%", false,                                                     \
      "type conversions' share of the XU pipe's instructions (warp level: thread conversions over predicated-on "    \
      "lanes)")                                                                                                       \
    X(L2_ATOMIC_BUSIEST_SLICE, "l2_atomic_sectors_busiest_slice", "sector", false,                                    \
      "atomic and reduction sectors of the L2's busiest slice (of each kind, summed: at most one slice's more)")    \
    X(BLOCKS_LAUNCHED_COUNT, "blocks_launched", "block", true, "thread blocks launched (the grid)")

/* The counts of the path a kernel's warps take that its timing can steer, where warps poll (spin on a flag or a
 * barrier) and their lanes leave the loop apart: cuBLAS's GEMMs read a few more or fewer divergent branch targets
 * from one launch to the next with nothing changed (docs/regressions.md). The comparison holds them exact only where
 * two collections a side or more agree. X(kind, ID): COLLECTED or DERIVED and the catalog's ID. */
#define TIMING_STEERED_METRICS(X) X(COLLECTED, BRANCH_TARGETS_DIVERGENT) X(DERIVED, DIVERGENT_BRANCHES)

/* The tensor cores' source types, X(ID, "name"): the name is summary.csv's tensor_type; each type is counted by the
 * collected TENSOR_OPS_<ID> and derived as FLOP_TENSOR_<ID>. */
#define TENSOR_TYPES(X) X(BF16, "bf16") X(FP16, "fp16") X(TF32, "tf32") X(FP8, "fp8") X(INT8, "int8") X(FP64, "fp64")

#define CATALOG_ID(id, name, traits, deterministic, what) METRIC_##id,
enum collected_metric { COLLECTED_METRICS(CATALOG_ID) COLLECTED_METRIC_COUNT };
enum derived_metric_id { DERIVED_METRICS(CATALOG_ID) DERIVED_METRIC_COUNT };
#undef CATALOG_ID

struct metric_group {
    const char *name;
    const char *what;
    unsigned bit;
};

const char *collected_metric_name(enum collected_metric id);
const char *derived_metric_name(enum derived_metric_id id);
/* A metric's name by its catalog id: COLLECTED(DRAM_BYTES_READ), DERIVED(DRAM_GBS). */
#define COLLECTED(id) collected_metric_name(METRIC_##id)
#define DERIVED(id) derived_metric_name(METRIC_##id)
const char *derived_metric_unit(enum derived_metric_id id);
/* The deterministic metrics, collected then derived, in catalog order; returns how many. */
int deterministic_metrics(const char *names[], int max);
/* Whether a deterministic metric is one of TIMING_STEERED_METRICS. */
bool metric_timing_steered(const char *name);

/* The groups, in the order --list-metric-groups prints them. */
const struct metric_group *metric_groups(int *count);
/* The collected metrics of a group, in catalog order, into members[] (at most max); returns how many. */
int metric_group_members(unsigned bit, const char *members[], int max);
void metric_groups_print(FILE *f);

#endif
