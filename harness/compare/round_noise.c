#include <math.h>

#include "round_noise.h"

static double t_density(double t, int df)
{
    double v = df;
    return exp(lgamma((v + 1) / 2) - lgamma(v / 2) - 0.5 * log(v * acos(-1.0)) - (v + 1) / 2 * log1p(t * t / v));
}

/* P(0 <= T <= t) by Simpson's rule: the density is smooth, and 2000 intervals hold the error below 1e-9. */
static double t_mass(double t, int df)
{
    const int intervals = 2000;
    double h = t / intervals, sum = t_density(0, df) + t_density(t, df);
    for (int i = 1; i < intervals; ++i)
        sum += (i % 2 ? 4 : 2) * t_density(i * h, df);
    return sum * h / 3;
}

double student_t_quantile(double p, int df)
{
    static double last_p, last_t;
    static int last_df;
    if (p == last_p && df == last_df) /* a comparison asks for the same one for every unit */
        return last_t;
    double target = p - 0.5, low = 0, high = 1;
    while (t_mass(high, df) < target)
        high *= 2;
    for (int i = 0; i < 60; ++i) {
        double middle = (low + high) / 2;
        *(t_mass(middle, df) < target ? &low : &high) = middle;
    }
    last_p = p;
    last_df = df;
    last_t = (low + high) / 2;
    return last_t;
}

/* The sum of squared deviations of the log medians from their mean. */
static double log_deviations(const double *medians, int n)
{
    double mean = 0, sum = 0;
    for (int i = 0; i < n; ++i)
        mean += log(medians[i]) / n;
    for (int i = 0; i < n; ++i)
        sum += (log(medians[i]) - mean) * (log(medians[i]) - mean);
    return sum;
}

double round_noise_floor(const double *base_medians, int base_rounds, const double *head_medians, int head_rounds,
                         double alpha)
{
    if (base_rounds < 2 || head_rounds < 2)
        return 0;
    int df = base_rounds + head_rounds - 2;
    double s = sqrt((log_deviations(base_medians, base_rounds) + log_deviations(head_medians, head_rounds)) / df);
    return expm1(student_t_quantile(1 - alpha / 2, df) * s * sqrt(1.0 / base_rounds + 1.0 / head_rounds));
}
