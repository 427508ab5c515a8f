/* The command line: what to run, how long to time it, and where to write. */
#ifndef MEMSCOPE_CLI_H
#define MEMSCOPE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "../../kernels/matmul.h"
#include "../common/error.h"
#include "../results/schema.h"
#include "timing.h"

#define MAX_SIZES 64
/* Kernels index with 32-bit ints: Width^2 must stay below 2^31, and so must each matrix's elements of a product of
 * any shape. */
#define MAX_WIDTH 46340
#define MAX_ELEMENTS 2147483647LL

struct options {
    bool help;
    bool list;
    const struct matmul_variant *variants[MAX_VARIANTS];
    int n_variants;
    struct matmul_shape sizes[MAX_SIZES]; /* squares (-s W) and products of any shape (-s RxCxI) */
    int n_sizes;
    int device;
    struct timing_policy timing;
    const char *out_dir; /* NULL: a fresh folder under memscope-results/ */
    const char *metric_groups; /* "all" unless --metric-groups or --no-metrics says otherwise */
    const char *metrics;       /* extra metric names, or NULL */
    bool list_metric_groups;
    bool validate; /* run the ground-truth kernels instead of the matmul variants */
    bool measure_ceilings; /* the GPU's ceilings alone, cached (harness/run/ceilings_only.h) */
    bool keep_operands; /* keep each variant's device operands until its width is done (run() sets it with metrics) */
    unsigned long long seed;
    double wait_gpu_s;
    bool trace; /* trace.json and timeline.csv (harness/run/trace_run.h) */ /* for another memscope run to finish with the GPU (harness/gpu/gpu_lock.h) */
};

int cli_parse(int argc, char **argv, struct options *o, struct error *e);
void cli_print_help(FILE *f);
void cli_print_variants(FILE *f);

#endif
