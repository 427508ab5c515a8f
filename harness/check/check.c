#include <math.h>

#include "check.h"

/* max_error is relative to rms(P), and the largest |P| of a big product is about 6 rms: an output stored in bf16 (8
 * significant bits) or fp16 (11) is off by up to half its last place, at worst (|P| just above a power of two) 2^-8
 * or 2^-11 of |P|, so up to about 6 x that of rms(P) from rounding alone (0.023, 0.0029). tf32 inputs drawn exact in tf32 multiply exactly in FP32: only the FP32 sum errs. */
double check_tolerance(enum matmul_precision precision)
{
    static const double tolerance[] = {[MATMUL_FP32] = 1e-4, [MATMUL_FP64] = 1e-12, [MATMUL_BF16] = 3e-2,
                                       [MATMUL_FP16] = 4e-3, [MATMUL_TF32] = 1e-4};
    return tolerance[precision];
}

void check_against_reference(const double *out, const double *ref, size_t count, double tolerance,
                             struct check_result *r)
{
    double ref_sq = 0.0, diff_sq = 0.0, worst = 0.0;
    *r = (struct check_result){.tolerance = tolerance};
    for (size_t i = 0; i < count; ++i) {
        ref_sq += ref[i] * ref[i];
        if (!isfinite(out[i])) {
            r->non_finite++;
            continue;
        }
        double diff = fabs(out[i] - ref[i]);
        diff_sq += diff * diff;
        if (diff > worst) {
            worst = diff;
            r->worst_index = i;
        }
    }
    double rms = count ? sqrt(ref_sq / (double)count) : 0.0;
    r->max_error = rms > 0.0 ? worst / rms : worst;
    r->rel_l2_error = ref_sq > 0.0 ? sqrt(diff_sq / ref_sq) : sqrt(diff_sq);
    r->passed = r->non_finite == 0 && r->max_error <= tolerance;
}
