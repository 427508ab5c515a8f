/* Summary statistics of timing samples. */
#ifndef MEMSCOPE_STATS_H
#define MEMSCOPE_STATS_H

struct sample_stats {
    int n;
    double min, q1, median, q3, max;
    double mean, stdev; /* stdev with n-1 in the denominator; 0 when n < 2 */
    double ci95_rel;    /* half-width of the 95 % interval of the mean, relative to the mean */
};

/* Quartiles use linear interpolation between order statistics (Hyndman-Fan type 7).
 * Returns 0, or -1 when memory for sorting cannot be had. */
int stats_compute(const double *samples, int n, struct sample_stats *out);

/* Running mean and variance (Welford), for the stopping rule while samples arrive. */
struct running_stats {
    int n;
    double mean, m2;
};

void running_add(struct running_stats *r, double x);
double running_ci95_rel(const struct running_stats *r);

#endif
