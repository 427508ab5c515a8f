/*
 * Per-instruction counters through CUPTI's SASS Metrics API: CUPTI patches
 * each kernel that runs between begin and end, and reports one value per
 * metric for every instruction, named by module (cubin CRC), function and PC
 * offset; source_line.h places such an instruction on its file and line.
 */
#ifndef MEMSCOPE_SASS_METRICS_H
#define MEMSCOPE_SASS_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "profiler_error.h"
#include "range_profiler.h"

#define PROF_SASS_MAX_METRICS 16

struct prof_sass_session {
    struct CUctx_st *ctx; /* the context collected on; CUPTI's "default" (NULL) recorded nothing without a
                             range profiler open */
    int device;
    int n_metrics;
    uint64_t ids[PROF_SASS_MAX_METRICS];
    int configured, enabled;
    size_t long_named; /* records of the last flush whose kernel's name a record holds cut short */
};

/* One instruction's counts, summed over every launch of its kernel between begin and end. */
struct prof_sass_record {
    uint32_t cubin_crc;
    uint32_t pc;
    char function[PROF_KERNEL_NAME_LEN]; /* mangled */
    uint64_t values[PROF_SASS_MAX_METRICS];
};

/* Looks up every name for the chip (an unknown one is PROF_UNKNOWN_METRIC) and configures the device, to collect
 * on ctx (the suite's: prof_current_context; a program's: its launch's).
 * On CUDA 13.0 a kernel that ran between this and begin is only patched again if a range profiler pass ran
 * it since (measured on an H100): callers open a range profiler too. */
int prof_sass_open(struct prof_sass_session *s, struct CUctx_st *ctx, int device, const char *chip, const char *const *names, int n,
                   struct prof_error *e);
int prof_sass_begin(struct prof_sass_session *s, struct prof_error *e);
/* What ran since begin (or the last flush) into *records (malloc'd, sorted by module, function and PC; the caller
 * frees), patching left on. A kernel's name longer than a record holds is cut (long_named counts its records): two
 * such kernels of one module that share the kept part would merge, so a caller that patches more than one kernel
 * between flushes refuses them. */
int prof_sass_flush(struct prof_sass_session *s, struct prof_sass_record **records, size_t *n, struct prof_error *e);
/* Collects what ran since begin into *records (malloc'd, sorted by module, function and PC; the caller frees). */
int prof_sass_end(struct prof_sass_session *s, struct prof_sass_record **records, size_t *n, struct prof_error *e);
int prof_sass_close(struct prof_sass_session *s, struct prof_error *e);

#endif
