/*
 * A diagnosis per kernel: which unit limits it and one sentence of evidence,
 * from its speed-of-light percentages and a few counters. The rules are data
 * (diagnosis.c, one table): the busiest unit at or above a threshold names the
 * limiter, and a rule for that unit may refine it with a counter (bank
 * conflicts, uncoalesced loads); below the threshold everywhere the kernel is
 * latency-bound. The evidence quotes the pipe the kernel's arithmetic runs on (the tensor pipe where it ran tensor
 * operations, the FP64 pipe where it executed more FP64 operations than FP32 ones, else the FMA pipe). A
 * tensor-bound kernel's evidence gives its tensor type, TFLOP/s and share of the measured roof of that type.
 * Host-only: the run and the tests call it alike.
 */
#ifndef MEMSCOPE_DIAGNOSIS_H
#define MEMSCOPE_DIAGNOSIS_H

#include <stddef.h>

/* What a diagnosis reads, by name, as the summary and metrics.csv name them; NAN when not collected. */
#define DIAGNOSIS_INPUTS(X)                                                                                          \
    X(IN_SOL_L1, "sol_l1_pct")                                                                                        \
    X(IN_SOL_L2, "sol_l2_pct")                                                                                        \
    X(IN_SOL_DRAM, "sol_dram_pct")                                                                                    \
    X(IN_FMA_PIPE, "fma_pipe_pct")                                                                                    \
    X(IN_FP64_PIPE, "fp64_pipe_pct")                                                                                  \
    X(IN_TENSOR_PIPE, "tensor_pipe_pct")                                                                              \
    /* runs before the split (issue 39): the FP64 and tensor pipes in one figure, sm__pipe_shared_cycles_active */    \
    X(IN_FP64_TENSOR_PIPE, "fp64_tensor_pipe_pct")                                                                    \
    X(IN_ISSUE_SLOTS, "issue_slots_pct")                                                                              \
    X(IN_SOL_SM, "sol_sm_pct")                                                                                        \
    X(IN_SOL_MEMORY, "sol_memory_pct")                                                                                \
    X(IN_OCCUPANCY, "achieved_occupancy")                                                                             \
    X(IN_SECTORS_PER_REQUEST_LD, "sectors_per_request_ld")                                                            \
    X(IN_LOAD_EFFICIENCY, "global_load_efficiency")                                                                   \
    X(IN_CONFLICT_SHARE, "conflict_share_pct") /* shared wavefronts beyond the ideal, % of all shared wavefronts */ \
    X(IN_FLOP_FP32, "flop_fp32")                                                                                      \
    X(IN_FLOP_FP64, "flop_fp64")                                                                                      \
    X(IN_TENSOR_GFLOPS, "tensor_gflops") /* tensor operations (all types) per second, in GFLOP/s */                 \
    X(IN_TENSOR_ROOF_PCT, "tensor_roof_pct") /* tensor_gflops over the run's measured roof of the tensor type */    \
    X(IN_L2_HIT_RATE, "l2_hit_rate") /* an L2 that mostly misses carries the DRAM's bytes (diagnosis.c) */           \
    /* The findings' inputs (findings.h): metrics.csv's names, or what the caller knows of the launch and the SM */  \
    X(IN_STORE_EFFICIENCY, "global_store_efficiency")                                                                 \
    X(IN_SECTORS_PER_REQUEST_ST, "sectors_per_request_st")                                                            \
    X(IN_LD_SECTORS, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum")                                      \
    X(IN_ST_SECTORS, "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum")                                      \
    X(IN_LD_REQUESTS, "smsp__sass_inst_executed_op_global_ld.sum")                                                    \
    X(IN_ST_REQUESTS, "smsp__sass_inst_executed_op_global_st.sum")                                                    \
    /* shared wavefronts beyond the ideal, of loads and of stores, and all shared wavefronts: the source group's */   \
    /* exact counts where it ran, else the kernel-total estimates */                                                  \
    X(IN_SHARED_LD_EXCESS, "shared_ld_excess_wavefronts")                                                             \
    X(IN_SHARED_ST_EXCESS, "shared_st_excess_wavefronts")                                                             \
    X(IN_SHARED_WAVEFRONTS, "shared_wavefronts")                                                                      \
    X(IN_LOCAL_SECTORS, "local_sectors")                                                                              \
    X(IN_GLOBAL_ATOMICS, "global_atomic_instructions")                                                                \
    X(IN_ATOMIC_SLICE_SKEW, "l2_atomic_slice_skew")                                                                   \
    X(IN_ACTIVE_LANES, "active_lanes_per_instruction")                                                                \
    X(IN_DIVERGENT_BRANCHES, "divergent_branch_targets")                                                                \
    X(IN_PREDICATED_ON_LANES, "predicated_on_lanes_per_instruction")                                                  \
    X(IN_CONVERSIONS, "conversions")                                                                                  \
    X(IN_XU_PIPE, "xu_pipe_pct")                                                                                      \
    X(IN_XU_CONVERSION_SHARE, "xu_conversion_share_pct")                                                              \
    X(IN_ATOMIC_BUSIEST_SLICE, "l2_atomic_sectors_busiest_slice")                                                     \
    X(IN_L2_BYTES, "l2_bytes") /* every request the L2 served: TMA's bulk copies too, which no LSU counter sees */     \
    X(IN_CONVERSIONS_PER_FP64_OP, "conversions_per_fp64_op")                                                          \
    X(IN_DURATION_MS, "duration_ms")                                                                                  \
    X(IN_BLOCKS_LAUNCHED, "blocks_launched")                                                                          \
    X(IN_SM_COUNT, "sm_count")                                                                                        \
    X(IN_THREADS_PER_BLOCK, "threads_per_block")                                                                      \
    X(IN_REGISTERS, "registers_per_thread")                                                                           \
    /* how many blocks one SM holds by each of its resources alone (occupancy.h), and its most warps */              \
    X(IN_BLOCKS_BY_REGISTERS, "blocks_per_sm_by_registers")                                                           \
    X(IN_BLOCKS_BY_SHARED, "blocks_per_sm_by_shared_memory")                                                          \
    X(IN_BLOCKS_BY_BLOCK_SIZE, "blocks_per_sm_by_block_size")                                                         \
    X(IN_SM_MAX_WARPS, "sm_max_warps")

#define DIAGNOSIS_ID(id, name) id,
enum diagnosis_input { DIAGNOSIS_INPUTS(DIAGNOSIS_ID) DIAGNOSIS_INPUT_COUNT };
#undef DIAGNOSIS_ID

const char *diagnosis_input_name(enum diagnosis_input id);

/* diagnosis.unit when no unit limits the kernel (latency), the sol group was not collected, or the kernel reached no
 * steady state (below). */
#define DIAGNOSIS_LATENCY (-1)
#define DIAGNOSIS_NOT_COLLECTED (-2)
#define DIAGNOSIS_NO_STEADY_STATE (-3)

/* A kernel shorter than this has not reached a steady state: its units' figures are averages over the ramp of its
 * first blocks and the drain of its last (docs/metrics.md gives the measurement), not rates. Its rates are withheld,
 * as are those of any kernel one of whose units reads above 100 % of its peak, which no steady state can. */
#define DIAGNOSIS_STEADY_STATE_MS 0.010

/* Whether the kernel's unit figures are rates (duration unknown: judged so); why not into why (NULL, len 0: not
 * wanted) if not. */
int diagnosis_steady_state(const double values[DIAGNOSIS_INPUT_COUNT], char *why, size_t len);

struct diagnosis {
    char limiter[48];
    char evidence[256];
    int unit; /* the limiting unit's input (IN_SOL_L1, IN_FMA_PIPE, ...), or one of the two above */
};

/* values[i] for input i; tensor_type: the source type of most of the kernel's tensor operations ("bf16", "fp16",
 * "tf32", "fp8", "int8", "fp64", as summary.csv's tensor_type), NULL or "" when it ran none or the tensor group was
 * not collected. Without the speed-of-light percentages the limiter is "not collected". */
void diagnose(const double values[DIAGNOSIS_INPUT_COUNT], const char *tensor_type, struct diagnosis *out);

/* Shared excess wavefronts where the source group did not count them instruction by instruction: the smaller of two
 * over-counts, the kernel-total estimate (which takes a broadcast or a wide access for a conflict: 536,870,912 for
 * tiled_32 at W = 4096, which has none) and the hardware conflict counter (tens of thousands to millions too many);
 * NAN where the estimate's inputs were not collected: not judged, not 0. */
double diagnosis_shared_excess_bound(double estimate, double hardware);

/* The stall reason CUPTI 13's PC sampling gives a warp waiting at a warpgroup's arrival before its wgmma, for the
 * wgmma's operands (smsp__pcsamp_warps_issue_stalled_warpgroup_arrive; its pcsamp list has no "gmma" reason, the
 * hardware counter smsp__warps_issue_stalled_gmma is not sampled). */
#define DIAGNOSIS_GMMA_STALL "warpgroup_arrive"

/* Appends the warps' most frequent stall reason (the stalls group: CUPTI's name and its share of the samples),
 * which tells apart kernels that the same unit limits (an issue-bound kernel whose warps are mostly selected
 * from one mostly not_selected); nothing when reason is NULL or empty, or pct unknown. gmma_pct: the share of
 * samples stalled on DIAGNOSIS_GMMA_STALL, for a kernel that ran tensor operations (NAN otherwise, or not
 * sampled): the wgmma's wait on its operands is said where it is the top reason or took any sample. */
void diagnosis_add_stall(struct diagnosis *d, const char *reason, double pct, double gmma_pct);

#endif
