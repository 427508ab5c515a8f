#include <math.h>

#include "check.h"

double check_tolerance(enum matmul_precision precision)
{
    return precision == MATMUL_FP64 ? 1e-12 : 1e-4;
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
