/*
 * The host side of CUPTI profiling: metric names, configuration images, and
 * evaluation of counter data. None of it needs a GPU: given a chip name
 * ("GH100") it runs anywhere CUPTI's host library loads, which is what makes
 * offline decoding and the CI tests possible.
 */
#ifndef MEMSCOPE_METRIC_HOST_H
#define MEMSCOPE_METRIC_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "profiler_error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct prof_host;

int prof_host_open(const char *chip, struct prof_host **out, struct prof_error *e);
/* Records a failure to release CUPTI's host object in e (the first failure wins) and frees h regardless. */
int prof_host_close(struct prof_host *h, struct prof_error *e);

/* PROF_UNKNOWN_METRIC with up to three near names in the message when the chip does not know the name. */
int prof_metric_validate(struct prof_host *h, const char *name, struct prof_error *e);
/* The metric's dimension unit as CUPTI names it ("byte", "nsecond", "%", ...). */
int prof_metric_unit(struct prof_host *h, const char *name, char *unit, size_t len, struct prof_error *e);

/* The most metrics a capture's configuration may hold; the harness collects no more. */
#define PROF_MAX_METRICS 72

/* A configuration: what the counters were programmed with, and how many replay passes it takes. */
struct prof_config {
    char chip[32];
    int n_metrics;
    char **metrics;
    uint8_t *image;
    size_t image_size;
    size_t passes;
};

/* Validates every name first, so an unknown one is reported by name rather than as a failed image. */
int prof_config_build(struct prof_host *h, const char *const *metrics, int n_metrics, struct prof_config *out,
                      struct prof_error *e);
void prof_config_free(struct prof_config *c);

/* A kernel's source-level name from its mangled symbol; the symbol itself when it is not mangled. */
void prof_demangle(const char *symbol, char *name, size_t len);

int prof_range_name(const uint8_t *counter_data, size_t size, size_t range, char *name, size_t len,
                    struct prof_error *e);
/* values[i] is metrics[i] in the given range. */
int prof_evaluate(struct prof_host *h, const uint8_t *counter_data, size_t size, size_t range,
                  const char *const *metrics, int n_metrics, double *values, struct prof_error *e);

#ifdef __cplusplus
}
#endif

#endif
