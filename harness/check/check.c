#include <math.h>

#include "check.h"
#include "parallel.h"

/* max_error is relative to rms(P), and the largest |P| of a big product is about 6 rms: an output stored in bf16 (8
 * significant bits) or fp16 (11) is off by up to half its last place, at worst (|P| just above a power of two) 2^-8
 * or 2^-11 of |P|, so up to about 6 x that of rms(P) from rounding alone (0.023, 0.0029). tf32 inputs drawn exact in tf32 multiply exactly in FP32: only the FP32 sum errs. */
double check_tolerance(enum matmul_precision precision)
{
    static const double tolerance[] = {[MATMUL_FP32] = 1e-4, [MATMUL_FP64] = 1e-12, [MATMUL_BF16] = 3e-2,
                                       [MATMUL_FP16] = 4e-3, [MATMUL_TF32] = 1e-4};
    return tolerance[precision];
}

/* The comparison runs in CHECK_CHUNKS fixed runs of elements, summed separately and then in order, so that the result
 * is the same whatever the number of threads that compare them (parallel.h). */
#define CHECK_CHUNKS 64

struct chunk_sums {
    double ref_sq, diff_sq, worst;
    size_t worst_index, non_finite;
};

struct comparison {
    const double *out, *ref;
    size_t count;
    struct chunk_sums chunk[CHECK_CHUNKS];
};

static void compare_chunk(const struct comparison *c, struct chunk_sums *out, size_t begin, size_t end)
{
    /* summed in a local and stored once: sums kept in *out would be stored and loaded again each element, since
     * the compiler cannot tell that c's arrays do not overlap it */
    struct chunk_sums s = {.worst_index = begin};
    for (size_t i = begin; i < end; ++i) {
        s.ref_sq += c->ref[i] * c->ref[i];
        if (!isfinite(c->out[i])) {
            s.non_finite++;
            continue;
        }
        double diff = fabs(c->out[i] - c->ref[i]);
        s.diff_sq += diff * diff;
        if (diff > s.worst) {
            s.worst = diff;
            s.worst_index = i;
        }
    }
    *out = s;
}

static void compare_span(void *context, size_t begin, size_t end)
{
    struct comparison *c = context; /* each thread writes its own chunks' sums */
    for (size_t k = begin; k < end; ++k)
        compare_chunk(c, &c->chunk[k], c->count * k / CHECK_CHUNKS, c->count * (k + 1) / CHECK_CHUNKS);
}

void check_against_reference(const double *out, const double *ref, size_t count, double tolerance,
                             struct check_result *r)
{
    struct comparison c = {.out = out, .ref = ref, .count = count};
    parallel_spans(CHECK_CHUNKS, count / CHECK_CHUNKS, compare_span, &c);
    double ref_sq = 0.0, diff_sq = 0.0, worst = 0.0;
    *r = (struct check_result){.tolerance = tolerance};
    for (size_t k = 0; k < CHECK_CHUNKS; ++k) {
        ref_sq += c.chunk[k].ref_sq;
        diff_sq += c.chunk[k].diff_sq;
        r->non_finite += c.chunk[k].non_finite;
        if (c.chunk[k].worst > worst) { /* the first chunk's on a tie, as one pass in order finds it */
            worst = c.chunk[k].worst;
            r->worst_index = c.chunk[k].worst_index;
        }
    }
    double rms = count ? sqrt(ref_sq / (double)count) : 0.0;
    r->max_error = rms > 0.0 ? worst / rms : worst;
    r->rel_l2_error = ref_sq > 0.0 ? sqrt(diff_sq / ref_sq) : sqrt(diff_sq);
    r->passed = r->non_finite == 0 && r->max_error <= tolerance;
}
