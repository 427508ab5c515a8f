#include <math.h>

#include "round_noise.h"

/* P(0 <= T <= t) for df degrees of freedom, in closed form (Abramowitz and Stegun 26.7.3 and 26.7.4, with
 * theta = atan(t / sqrt(df))): exact at every t, where a numerical integral loses the far tail that a small alpha
 * asks for. */
static double t_mass(double t, int df)
{
    double theta = atan(t / sqrt(df)), c2 = cos(theta) * cos(theta), term = 1, sum = 1;
    if (df % 2 == 0) {
        for (int k = 2; k <= df - 2; k += 2)
            sum += term *= c2 * (k - 1) / k;
        return 0.5 * sin(theta) * sum;
    }
    if (df == 1)
        return theta / acos(-1.0);
    term = cos(theta);
    sum = term;
    for (int k = 3; k <= df - 2; k += 2)
        sum += term *= c2 * (k - 1) / k;
    return (theta + sin(theta) * sum) / acos(-1.0);
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
    for (int i = 0; i < base_rounds + head_rounds; ++i)
        if (!((i < base_rounds ? base_medians[i] : head_medians[i - base_rounds]) > 0))
            return 0; /* a round that measured nothing measures no noise */
    int df = base_rounds + head_rounds - 2;
    double s = sqrt((log_deviations(base_medians, base_rounds) + log_deviations(head_medians, head_rounds)) / df);
    return expm1(student_t_quantile(1 - alpha / 2, df) * s * sqrt(1.0 / base_rounds + 1.0 / head_rounds));
}
