/*
 * Warp stall reasons through CUPTI's PC sampling API (cupti_pcsampling.h).
 * Every 2^period cycles each SM's sampler picks a warp and records its PC and
 * why it was not issuing (or that it was): a sample per (PC, reason). Kernels
 * are serialized while sampling, and sampling runs only between begin and
 * end, so a collection holds exactly the kernels launched in between.
 *
 * Records are named like the SASS metrics' (cubin CRC, function, PC offset),
 * so source_line.h places them on source lines. Reasons are CUPTI's
 * names with their common prefix removed ("long_scoreboard"); the subset
 * CUPTI also reports for samples where no warp issued ("..._not_issued") is
 * left out, so the reasons of a PC add up to all its samples.
 */
#ifndef MEMSCOPE_PC_SAMPLING_H
#define MEMSCOPE_PC_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

#include "profiler_error.h"
#include "range_profiler.h"
#include "source_line.h"

#define PROF_PCS_MAX_REASONS 64
#define PROF_PCS_REASON_LEN 64

struct prof_pcs_session {
    struct CUctx_st *ctx;
    unsigned period_log2;
    int n_reasons; /* the reasons kept, in CUPTI's order */
    char reason[PROF_PCS_MAX_REASONS][PROF_PCS_REASON_LEN];
    uint32_t reason_index[PROF_PCS_MAX_REASONS]; /* CUPTI's index of each kept reason */
    int n_all;                                    /* every reason CUPTI samples, kept or not */
    uint32_t all_index[2 * PROF_PCS_MAX_REASONS];
    void *configured; /* the buffer CUPTI was configured with (CUpti_PCSamplingData) */
    void *drained;    /* the buffer cuptiPCSamplingGetData fills */
    int enabled;
};

/* One instruction's samples per kept reason, summed over every launch between begin and end. */
struct prof_pcs_record {
    uint32_t cubin_crc;
    uint32_t pc;
    char function[PROF_FUNCTION_NAME_LEN]; /* mangled */
    uint64_t samples[PROF_PCS_MAX_REASONS];
};

/* What a collection saw beyond its records. */
struct prof_pcs_totals {
    uint64_t samples;         /* every sample, including other kernels' and dropped ones */
    uint64_t dropped;         /* lost by the hardware buffer */
    uint64_t non_user;        /* in kernels CUPTI gives no records for */
};

/* Enables PC sampling on ctx, one sample per 2^period_log2 cycles per SM (5 to 31). */
int prof_pcs_open(struct prof_pcs_session *s, struct CUctx_st *ctx, unsigned period_log2, struct prof_error *e);
/* Changes the period for the next begin: one sample per 2^period_log2 cycles per SM (5 to 31). */
int prof_pcs_set_period(struct prof_pcs_session *s, unsigned period_log2, struct prof_error *e);
int prof_pcs_begin(struct prof_pcs_session *s, struct prof_error *e);
/* Stops and collects what ran since begin into *records (malloc'd, sorted by module, function and PC). */
int prof_pcs_end(struct prof_pcs_session *s, struct prof_pcs_record **records, size_t *n,
                 struct prof_pcs_totals *totals, struct prof_error *e);
/* Disables PC sampling and frees everything; safe on a session that failed to open. */
int prof_pcs_close(struct prof_pcs_session *s, struct prof_error *e);

/* The kept reason for CUPTI's reason name, or "" for a name left out (a "_not_issued" subset). */
void prof_pcs_reason_name(const char *cupti_name, char *out, size_t len);

#endif
