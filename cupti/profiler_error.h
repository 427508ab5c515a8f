/*
 * Errors of the cupti/ library: a status and a message, returned as values.
 * The library knows nothing of what is profiled; callers map these to their
 * own exit codes.
 */
#ifndef MEMSCOPE_PROFILER_ERROR_H
#define MEMSCOPE_PROFILER_ERROR_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum prof_status {
    PROF_OK = 0,
    PROF_NO_PERMISSION,    /* CUPTI_ERROR_INSUFFICIENT_PRIVILEGES */
    PROF_UNKNOWN_METRIC,   /* a name the chip does not know */
    PROF_UNSUPPORTED_CHIP, /* the chip has no metric tables in this CUPTI */
    PROF_DROPPED_RANGES,   /* the counter data image was too small for what ran */
    PROF_BAD_CAPTURE,      /* a saved capture file is unreadable or inconsistent */
    PROF_BUSY,             /* another process holds the GPU's profiler */
    PROF_TAKEN,            /* another tool holds CUPTI in this process (one subscriber per process) */
    PROF_FAILED,           /* any other CUPTI failure */
};

struct prof_error {
    enum prof_status status;
    char message[1024];
};

/* Records the first error only; returns its status. */
int prof_fail(struct prof_error *e, enum prof_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Turns a CUPTI result into a status and message; CUPTI_SUCCESS gives PROF_OK. */
int prof_check(struct prof_error *e, int cupti_result, const char *call);

/* The same for the PC sampler's start and stop, where CUPTI answers CUPTI_ERROR_UNKNOWN when another process
 * samples the same GPU: PROF_BUSY, with a message that says so. */
int prof_check_sampler(struct prof_error *e, int cupti_result, const char *call);

/* How long a start of the range profiler waits, and where it says so, while another process holds the GPU's
 * profiler (default: not at all). */
void prof_set_busy_wait(double seconds, FILE *log);
double prof_busy_wait_seconds(void);
FILE *prof_busy_wait_log(void);

#ifdef __cplusplus
}
#endif

#endif
