#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Normal approximation; the stopping rule never judges fewer than a handful of samples. */
#define Z95 1.959964

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile_sorted(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int lo = (int)floor(pos);
    int hi = lo + 1 < n ? lo + 1 : lo;
    return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

static double ci95_rel(int n, double mean, double stdev)
{
    if (n < 2 || mean == 0.0)
        return INFINITY;
    return Z95 * stdev / sqrt((double)n) / fabs(mean);
}

int stats_compute(const double *samples, int n, struct sample_stats *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    if (n <= 0)
        return 0;
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return -1;
    struct running_stats r = {0};
    for (int i = 0; i < n; ++i)
        running_add(&r, samples[i]);
    out->mean = r.mean;
    out->stdev = n > 1 ? sqrt(r.m2 / (n - 1)) : 0.0;
    out->ci95_rel = ci95_rel(n, out->mean, out->stdev);
    memcpy(sorted, samples, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_doubles);
    out->min = sorted[0];
    out->q1 = quantile_sorted(sorted, n, 0.25);
    out->median = quantile_sorted(sorted, n, 0.5);
    out->q3 = quantile_sorted(sorted, n, 0.75);
    out->max = sorted[n - 1];
    free(sorted);
    return 0;
}

void running_add(struct running_stats *r, double x)
{
    r->n += 1;
    double delta = x - r->mean;
    r->mean += delta / r->n;
    r->m2 += delta * (x - r->mean);
}

double running_ci95_rel(const struct running_stats *r)
{
    return ci95_rel(r->n, r->mean, r->n > 1 ? sqrt(r->m2 / (r->n - 1)) : 0.0);
}
