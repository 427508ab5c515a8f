/*
 * Warp stall samples gathered per kernel and source line (no GPU): what the
 * stall sampling of one profiled call saw, once each sampled instruction is
 * placed on its line. A line's samples per reason, summed over its
 * instructions; a kernel's, summed over its lines.
 */
#ifndef MEMSCOPE_STALL_LINES_H
#define MEMSCOPE_STALL_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "../../cupti/pc_sampling.h"
#include "../common/error.h"
#include "../results/job_name.h"
#include "../results/source_capture.h"

struct stall_line {
    char function[PROF_FUNCTION_NAME_LEN]; /* mangled */
    char file[SOURCE_FILE_LEN];         /* "" and line 0: a kernel built without line information */
    int line;
    uint64_t samples[PROF_PCS_MAX_REASONS];
};

struct stall_call {
    char variant[JOB_NAME_LEN]; /* or a program's job */
    char precision[16];
    struct product_shape shape;
    struct stall_line *lines;
    size_t n;
    struct prof_pcs_totals totals;
    unsigned period_log2;   /* one sample per 2^period_log2 cycles per SM */
    double gpu_ms, wall_ms; /* the sampled launches by CUDA events; with reading back and placing the samples */
};

/* The reasons of a run, as the PC sampling session named them. */
struct stall_reasons {
    int n;
    char name[PROF_PCS_MAX_REASONS][PROF_PCS_REASON_LEN];
};

/* Adds one instruction's samples to its line (created on first use). */
int stall_add(struct stall_call *c, const char *function, const char *file, int line, const uint64_t *samples,
              int n_reasons, struct error *e);
/* Sums function's samples over its lines (function NULL: every kernel of the call); returns their total. */
uint64_t stall_function_totals(const struct stall_call *c, const char *function, int n_reasons,
                               uint64_t totals[PROF_PCS_MAX_REASONS]);
/* The function with the most samples, or NULL when nothing was sampled. */
const char *stall_busiest_function(const struct stall_call *c, int n_reasons);
/* The reason with the most samples in totals, or -1 when all are zero. */
int stall_top_reason(const uint64_t totals[PROF_PCS_MAX_REASONS], int n_reasons);
/* What summary.csv shows of a call: its busiest kernel's samples and top reason. */
struct stall_summary {
    uint64_t samples;
    char top_reason[PROF_PCS_REASON_LEN]; /* "" when nothing was sampled */
    double top_pct;                       /* the top reason's share of the kernel's samples */
    double wall_ms;
};
void stall_summarize(const struct stall_call *c, const struct stall_reasons *reasons, struct stall_summary *out);
void stall_call_free(struct stall_call *c);

#endif
