/*
 * Comparing a variant's output with the reference. The error of each element is
 * measured against the root-mean-square of the reference, so one wrong element
 * fails even in a large matrix, while rounding differences from another
 * summation order pass. NaN or infinity anywhere fails: the output is poisoned
 * with NaN before each checked run, so an element never written fails too.
 */
#ifndef MEMSCOPE_CHECK_H
#define MEMSCOPE_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "../../kernels/matmul.h"

struct check_result {
    bool passed;
    size_t non_finite;   /* NaN or infinite elements, unwritten ones included */
    double max_error;    /* max |out - ref| / rms(ref) over finite elements */
    double rel_l2_error; /* ||out - ref|| / ||ref|| over finite elements */
    size_t worst_index;  /* row-major index of the largest error */
    double tolerance;
    const char *refused; /* the variant's reason when it refused the width (nothing launched, nothing checked) */
};

/* FP32 summation error over Width terms stays near 0.2 * eps * sqrt(Width) per element; these leave a wide margin. */
double check_tolerance(enum matmul_precision precision);
void check_against_reference(const double *out, const double *ref, size_t count, double tolerance,
                             struct check_result *r);

#endif
