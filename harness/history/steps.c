#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "steps.h"

/* A noise below this (0.01 %) is taken as this: a series of identical times would otherwise make every
 * difference infinitely significant. The floor decides there. */
#define LEAST_NOISE 1e-4
/* The normal quantile of a two-sided 95 % interval. */
#define Z95 1.959963984540054

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_in_place(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, by_value);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

int steps_noise(const double *y, int n, double *noise)
{
    *noise = 0;
    if (n < 3)
        return 0;
    double *d = malloc((size_t)(n - 1) * sizeof *d);
    if (!d)
        return -1;
    for (int i = 0; i + 1 < n; ++i)
        d[i] = y[i + 1] - y[i];
    double middle = median_in_place(d, n - 1);
    for (int i = 0; i + 1 < n; ++i)
        d[i] = fabs(d[i] - middle);
    *noise = 1.4826 * median_in_place(d, n - 1) / sqrt(2);
    free(d);
    return 0;
}

/* The fit's working memory: prefix sums of y (centred, so that long series keep their precision), the best cost
 * of each prefix, where its last level starts, and PELT's candidates for that. */
struct fit {
    int n;
    double *sum, *sum2, *best;
    int *last, *candidate;
    /* The levels, merged below the floor: level k covers [start[k], start[k + 1]). */
    int levels, *start;
};

static void fit_free(struct fit *f)
{
    free(f->sum);
    free(f->sum2);
    free(f->best);
    free(f->last);
    free(f->candidate);
    free(f->start);
}

static int fit_alloc(struct fit *f, const double *y, int n)
{
    memset(f, 0, sizeof *f);
    f->n = n;
    size_t slots = (size_t)n + 2;
    f->sum = malloc(slots * sizeof *f->sum);
    f->sum2 = malloc(slots * sizeof *f->sum2);
    f->best = malloc(slots * sizeof *f->best);
    f->last = malloc(slots * sizeof *f->last);
    f->candidate = malloc(slots * sizeof *f->candidate);
    f->start = malloc(slots * sizeof *f->start);
    if (!f->sum || !f->sum2 || !f->best || !f->last || !f->candidate || !f->start) {
        fit_free(f);
        return -1;
    }
    f->sum[0] = f->sum2[0] = 0;
    for (int i = 0; i < n; ++i) {
        double x = y[i] - y[0];
        f->sum[i + 1] = f->sum[i] + x;
        f->sum2[i + 1] = f->sum2[i] + x * x;
    }
    return 0;
}

/* The squared deviations of y[s..t) from their mean. */
static double deviation(const struct fit *f, int s, int t)
{
    double total = f->sum[t] - f->sum[s];
    return f->sum2[t] - f->sum2[s] - total * total / (t - s);
}

static double mean(const struct fit *f, int s, int t)
{
    return (f->sum[t] - f->sum[s]) / (t - s);
}

/* PELT: best[t] = min over candidates s of best[s] + deviation(s, t) / variance + beta. A candidate that cannot
 * start the last level of a best fit now never will (the cost has no per-level constant), and is dropped. */
static void partition(struct fit *f, const bool *may_step, double variance, double beta)
{
    int candidates = 1;
    f->candidate[0] = 0;
    f->best[0] = -beta;
    for (int t = 1; t <= f->n; ++t) {
        /* A cost that is not a number (a series holding an infinity) is no better than none: the level then starts
         * at the first candidate, so that the trace back below always ends. */
        f->best[t] = INFINITY;
        f->last[t] = f->candidate[0];
        for (int c = 0; c < candidates; ++c) {
            int s = f->candidate[c];
            double cost = f->best[s] + deviation(f, s, t) / variance + beta;
            if (cost < f->best[t]) {
                f->best[t] = cost;
                f->last[t] = s;
            }
        }
        int kept = 0;
        for (int c = 0; c < candidates; ++c) {
            int s = f->candidate[c];
            if (f->best[s] + deviation(f, s, t) / variance <= f->best[t])
                f->candidate[kept++] = s;
        }
        candidates = kept ? kept : 1; /* all pruned only when no cost was a number: keep the first */
        if (t < f->n && may_step[t])
            f->candidate[candidates++] = t;
    }
    /* The levels' starts, from the last back, then in order. */
    f->levels = 0;
    for (int t = f->n; t > 0; t = f->last[t])
        f->start[f->levels++] = f->last[t];
    for (int i = 0; i < f->levels / 2; ++i) {
        int keep = f->start[i];
        f->start[i] = f->start[f->levels - 1 - i];
        f->start[f->levels - 1 - i] = keep;
    }
    f->start[f->levels] = f->n;
}

/* Merges the two adjacent levels closest to each other while they are closer than the floor. */
static void merge_below_floor(struct fit *f, double floor)
{
    for (;;) {
        int closest = -1;
        double smallest = INFINITY;
        for (int k = 0; k + 1 < f->levels; ++k) {
            double change =
                fabs(expm1(mean(f, f->start[k + 1], f->start[k + 2]) - mean(f, f->start[k], f->start[k + 1])));
            if (change < floor && change < smallest) {
                smallest = change;
                closest = k;
            }
        }
        if (closest < 0)
            return;
        memmove(f->start + closest + 1, f->start + closest + 2, (size_t)(f->levels - closest - 1) * sizeof *f->start);
        --f->levels;
    }
}

/* The scatter of the points about their fitted levels (pooled standard deviation), for the steps' intervals: the
 * robust noise ignores the rare far-off run on purpose, but a level's mean does not. */
static double scatter(const struct fit *f)
{
    double total = 0;
    for (int k = 0; k < f->levels; ++k)
        total += deviation(f, f->start[k], f->start[k + 1]);
    return f->n > f->levels ? sqrt(total / (f->n - f->levels)) : 0;
}

int steps_find(const double *y, const bool *may_step, int n, const struct step_rules *rules, struct step *out, int max,
               double *level)
{
    struct fit f;
    double noise;
    if (n == 0)
        return 0;
    if (steps_noise(y, n, &noise) || fit_alloc(&f, y, n))
        return -1;
    noise = fmax(noise, LEAST_NOISE);
    partition(&f, may_step, noise * noise, rules->penalty * log(n));
    merge_below_floor(&f, rules->floor);
    double spread = fmax(noise, scatter(&f));
    int found = 0;
    for (int k = 0; k + 1 < f.levels && found < max; ++k) {
        int a = f.start[k], b = f.start[k + 1], c = f.start[k + 2];
        double change = mean(&f, b, c) - mean(&f, a, b), half = Z95 * spread * sqrt(1.0 / (b - a) + 1.0 / (c - b));
        out[found++] = (struct step){b, expm1(change), expm1(change - half), expm1(change + half)};
    }
    for (int k = 0; level && k < f.levels; ++k)
        for (int i = f.start[k]; i < f.start[k + 1]; ++i)
            level[i] = y[0] + mean(&f, f.start[k], f.start[k + 1]);
    fit_free(&f);
    return found;
}
