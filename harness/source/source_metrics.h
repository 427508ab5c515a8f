/*
 * What lines.csv reports from the per-instruction counters the source group
 * collects (SASS_METRICS, in results/source_capture.h: a .source capture
 * holds those counters and no other). CUPTI
 * gives the ideal count per instruction (the wavefronts or sectors the same
 * access would need without bank conflicts or wasted sectors; Nsight Compute's
 * source page shows the same as "Ideal"), so the excess of each instruction
 * is exact: its count minus its ideal, never below zero. Predicated-off lanes are the active lanes less those whose
 * predicate held; conversions are the predicated-on lanes of the instructions whose opcode converts (the kernel
 * counter smsp__sass_thread_inst_executed_op_conversion_pred_on counts the same, summed over the kernel).
 */
#ifndef MEMSCOPE_SOURCE_METRICS_H
#define MEMSCOPE_SOURCE_METRICS_H

#include <stdint.h>

#include "../results/source_capture.h"

/* X(ID, "name in lines.csv", "what it counts") */
#define LINE_METRICS(X)                                                                                               \
    X(LINE_INST_EXECUTED, "inst_executed", "warp instructions executed")                                              \
    X(LINE_SHARED_INSTRUCTIONS, "shared_instructions", "shared load and store instructions (LDS, STS)")            \
    X(LINE_SHARED_LD_WAVEFRONTS, "shared_ld_wavefronts", "shared wavefronts of loads (LDS, LDSM)")                    \
    X(LINE_SHARED_ST_WAVEFRONTS, "shared_st_wavefronts", "shared wavefronts of stores (STS, LDGSTS)")                 \
    X(LINE_SHARED_WAVEFRONTS, "shared_wavefronts", "shared wavefronts of every kind (LDSM, LDGSTS, atomics too)")      \
    X(LINE_SHARED_WAVEFRONTS_IDEAL, "shared_wavefronts_ideal", "shared wavefronts without bank conflicts")            \
    X(LINE_SHARED_EXCESS_WAVEFRONTS, "shared_excess_wavefronts", "shared wavefronts beyond the ideal: bank conflicts") \
    X(LINE_GLOBAL_LD_REQUESTS, "global_ld_requests", "global load instructions executed")                             \
    X(LINE_GLOBAL_ST_REQUESTS, "global_st_requests", "global store instructions executed")                            \
    X(LINE_GLOBAL_LD_SECTORS, "global_ld_sectors", "sectors of global loads")                                         \
    X(LINE_GLOBAL_ST_SECTORS, "global_st_sectors", "sectors of global stores")                                        \
    X(LINE_GLOBAL_SECTORS, "global_sectors", "sectors of global accesses of every kind (LDGSTS too)")                 \
    X(LINE_GLOBAL_SECTORS_IDEAL, "global_sectors_ideal", "sectors the same bytes would need, fully used")             \
    X(LINE_GLOBAL_EXCESS_SECTORS, "global_excess_sectors", "global sectors beyond the ideal")                         \
    X(LINE_THREAD_INST_EXECUTED, "thread_inst_executed", "thread instructions executed: each instruction's active lanes") \
    X(LINE_PREDICATED_OFF_LANES, "predicated_off_lanes", "active lanes whose predicate was false: issued for nothing")  \
    X(LINE_CONVERSIONS, "conversions", "thread instructions that convert between types (I2F, F2I, F2F, I2I, FRND)")

#define LINE_ID(id, ...) id,
enum line_metric { LINE_METRICS(LINE_ID) LINE_METRIC_COUNT };
#undef LINE_ID

const char *line_metric_name(enum line_metric id);

/* One instruction's line metrics from its SASS counts (values come in sass_metric order) and its opcode ("?" where
 * no disassembler named it), which tells the shared side of the instructions CUPTI's op_shared_ld/st leave out. */
void line_metrics_of_instruction(const uint64_t sass[SASS_METRIC_COUNT], const char *opcode,
                                 double out[LINE_METRIC_COUNT]);

#endif
