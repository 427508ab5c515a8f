#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"
#include "../common/stats.h"

const struct verdict_rules VERDICT_RULES_DEFAULT = {.floor = 0.02, .alpha = 0.01, .min_samples = 5, .resamples = 2000};

const char *verdict_name(enum verdict v)
{
    static const char *const names[] = {"SAME", "SLOWER", "FASTER", "UNSURE"};
    return names[v];
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct ranked {
    double value;
    int from_a;
};

static int by_ranked_value(const void *a, const void *b)
{
    return by_value(&((const struct ranked *)a)->value, &((const struct ranked *)b)->value);
}

/* all sorted by value, ties given their mid rank: the sum of the ranks of those from_a, and sum(t^3 - t) over the
 * groups of t ties (the tie correction of both rank tests). */
static double flagged_rank_sum(struct ranked *all, int n, double *ties)
{
    double sum = 0;
    *ties = 0;
    qsort(all, (size_t)n, sizeof *all, by_ranked_value);
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && all[j].value == all[i].value)
            ++j;
        double mid_rank = (i + 1 + j) / 2.0, t = j - i;
        for (int k = i; k < j; ++k)
            if (all[k].from_a)
                sum += mid_rank;
        *ties += t * t * t - t;
        i = j;
    }
    return sum;
}

/* Two-sided p-value of a rank statistic's normal approximation, with the continuity correction. */
static double normal_p(double statistic, double mean, double variance)
{
    if (variance <= 0)
        return 1.0; /* every sample equal: no evidence of a difference */
    double z = (fabs(statistic - mean) - 0.5) / sqrt(variance);
    return z <= 0 ? 1.0 : erfc(z / sqrt(2.0));
}

double mann_whitney_p(const double *a, int na, const double *b, int nb)
{
    int n = na + nb;
    struct ranked *all = malloc((size_t)n * sizeof *all);
    if (!all)
        return NAN;
    for (int i = 0; i < na; ++i)
        all[i] = (struct ranked){a[i], 1};
    for (int i = 0; i < nb; ++i)
        all[na + i] = (struct ranked){b[i], 0};
    double ties, rank_sum_a = flagged_rank_sum(all, n, &ties);
    free(all);
    double u = rank_sum_a - na * (na + 1) / 2.0, mean = na * (double)nb / 2.0;
    double variance = na * (double)nb / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
    return normal_p(u, mean, variance);
}

double wilcoxon_signed_rank_p(const double *d, int n)
{
    struct ranked *all = malloc((size_t)(n + 1) * sizeof *all);
    int m = 0;
    if (!all)
        return NAN;
    for (int i = 0; i < n; ++i)
        if (d[i] != 0)
            all[m++] = (struct ranked){fabs(d[i]), d[i] > 0};
    double ties, positive_ranks = m ? flagged_rank_sum(all, m, &ties) : 0;
    free(all);
    if (m == 0)
        return 1.0;
    return normal_p(positive_ranks, m * (m + 1.0) / 4.0, m * (m + 1.0) * (2.0 * m + 1) / 24.0 - ties / 48.0);
}

/* splitmix64: small, fast, and the same sequence on every machine. */
static unsigned long long next_random(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* v[k] made the k-th smallest of v[0..n), everything before it no larger (Hoare's selection): a median in linear time,
 * where a sort of each resample made a comparison of a thousand kernels take minutes. */
static void select_kth(double *v, int n, int k)
{
    int low = 0, high = n - 1;
    while (low < high) {
        double pivot = v[low + (high - low) / 2];
        int i = low, j = high;
        while (i <= j) {
            while (v[i] < pivot)
                ++i;
            while (v[j] > pivot)
                --j;
            if (i <= j) {
                double t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        if (k <= j)
            high = j;
        else if (k >= i)
            low = i;
        else
            return;
    }
}

static double resampled_median(const double *x, int n, double *scratch, unsigned long long *state)
{
    for (int i = 0; i < n; ++i)
        scratch[i] = x[next_random(state) % (unsigned long long)n];
    select_kth(scratch, n, n / 2);
    if (n % 2)
        return scratch[n / 2];
    double below = scratch[0]; /* the largest of the lower half */
    for (int i = 1; i < n / 2; ++i)
        below = scratch[i] > below ? scratch[i] : below;
    return 0.5 * (below + scratch[n / 2]);
}

/* The percentile 95 % interval of a bootstrap's resampled statistics (sorted here). */
static void percentile_interval(double *resampled, int resamples, double *low, double *high)
{
    qsort(resampled, (size_t)resamples, sizeof *resampled, by_value);
    *low = resampled[(int)floor(0.025 * (resamples - 1))];
    *high = resampled[(int)ceil(0.975 * (resamples - 1))];
}

/* b is NULL for the median of a alone (paired launches' ratios), else the ratio of b's median to a's. */
static int bootstrap(const double *a, int na, const double *b, int nb, int resamples, unsigned long long seed,
                     double *low, double *high)
{
    double *resampled = malloc((size_t)resamples * sizeof *resampled);
    double *scratch = malloc((size_t)(na > nb ? na : nb) * sizeof *scratch);
    if (!resampled || !scratch) {
        free(resampled);
        free(scratch);
        return -1;
    }
    unsigned long long state = seed;
    for (int r = 0; r < resamples; ++r) {
        double median_a = resampled_median(a, na, scratch, &state);
        resampled[r] = b ? resampled_median(b, nb, scratch, &state) / median_a : median_a;
    }
    percentile_interval(resampled, resamples, low, high);
    free(resampled);
    free(scratch);
    return 0;
}

int bootstrap_median_ratio(const double *a, int na, const double *b, int nb, int resamples, unsigned long long seed,
                           double *low, double *high)
{
    return bootstrap(a, na, b, nb, resamples, seed, low, high);
}

/* The rank test a comparison ran: on two sides' samples, or on paired launches' ratios. */
static const char *test_name(const struct timing_comparison *c)
{
    return c->paired ? "signed-rank test" : "U test";
}

/* "the 2 % floor", or "the 3.1 % floor of its rounds' noise". */
static const char *floor_words(const struct timing_comparison *c)
{
    static char words[64];
    snprintf(words, sizeof words, "the %.3g %% floor%s", 100 * c->floor,
             c->floor_from_rounds ? " of its rounds' noise" : "");
    return words;
}

/* "p = 0.0015", or where a family weighed it "p = 0.0015 (0.15 by Holm over 108 units)". */
static const char *p_words(const struct timing_comparison *c)
{
    static char words[64];
    int n = snprintf(words, sizeof words, "p = %.2g", c->p_value);
    if (c->family > 1)
        snprintf(words + n, sizeof words - (size_t)n, " (%.2g by Holm over %d units)", c->p_family, c->family);
    return words;
}

/* SAME needs the whole interval within the rules' floor, however noisy the unit: a floor its rounds' noise raised
 * only keeps a change from being called SLOWER or FASTER, and a change under it is UNSURE, not the same. */
static void judge(const struct verdict_rules *rules, struct timing_comparison *c)
{
    double spread = fmax(c->base_spread, c->head_spread), size = fabs(c->change);
    int significant = c->p_family < rules->alpha && (c->interval_low > 0 || c->interval_high < 0);
    if (significant && size > c->floor && size > spread) {
        c->verdict = c->change > 0 ? VERDICT_SLOWER : VERDICT_FASTER;
        snprintf(c->reason, sizeof c->reason, "%s %s; change beyond %s and the spread", test_name(c), p_words(c),
                 floor_words(c));
    } else if (c->interval_low >= -rules->floor && c->interval_high <= rules->floor) {
        c->verdict = VERDICT_SAME;
        snprintf(c->reason, sizeof c->reason, "interval within the %.3g %% floor", 100 * rules->floor);
    } else if (significant && size > c->floor) {
        c->verdict = VERDICT_UNSURE;
        snprintf(c->reason, sizeof c->reason, "change %.2f %% is within the spread (%.2f %%)", 100 * c->change,
                 100 * spread);
    } else if (significant && size > rules->floor) {
        c->verdict = VERDICT_UNSURE;
        snprintf(c->reason, sizeof c->reason, "change %.2f %% is within %s", 100 * c->change, floor_words(c));
    } else if ((c->interval_low > 0 || c->interval_high < 0) && size > c->floor) {
        c->verdict = VERDICT_UNSURE; /* few samples, or many units weighed by Holm: p does not fall below alpha */
        snprintf(c->reason, sizeof c->reason, "%s %s, not below alpha %.3g", test_name(c), p_words(c),
                 rules->alpha);
    } else {
        c->verdict = VERDICT_UNSURE;
        snprintf(c->reason, sizeof c->reason, "interval reaches past the %.3g %% floor (spread %.2f %%)",
                 100 * rules->floor, 100 * spread);
    }
    if (c->paired)
        snprintf(c->reason + strlen(c->reason), sizeof c->reason - strlen(c->reason), "; %d launches paired",
                 c->base_n);
}

/* The floor and the sample counts; UNSURE when a side has too few samples (returns 1 then). */
static int begin(int base_n, int head_n, const struct verdict_rules *rules, double round_floor,
                 struct timing_comparison *out)
{
    memset(out, 0, sizeof *out);
    out->floor = fmax(rules->floor, round_floor);
    out->floor_from_rounds = round_floor > rules->floor;
    out->base_n = base_n;
    out->head_n = head_n;
    out->interval_low = out->interval_high = out->p_value = out->p_family = NAN;
    out->family = 1;
    if (base_n >= rules->min_samples && head_n >= rules->min_samples)
        return 0;
    out->verdict = VERDICT_UNSURE;
    snprintf(out->reason, sizeof out->reason, "too few samples (base %d, head %d; %d needed)", base_n, head_n,
             rules->min_samples);
    return 1;
}

int compare_timings(const double *base, int base_n, const double *head, int head_n, const struct verdict_rules *rules,
                    double round_floor, struct timing_comparison *out)
{
    struct sample_stats b, h;
    int too_few = begin(base_n, head_n, rules, round_floor, out);
    if (stats_compute(base, base_n, &b) || stats_compute(head, head_n, &h))
        return -1;
    out->base_median = b.median;
    out->head_median = h.median;
    out->change = base_n && head_n ? h.median / b.median - 1 : NAN;
    if (too_few)
        return 0;
    out->base_spread = (b.q3 - b.q1) / b.median;
    out->head_spread = (h.q3 - h.q1) / h.median;
    out->p_value = out->p_family = mann_whitney_p(base, base_n, head, head_n);
    double low, high;
    if (isnan(out->p_value) || bootstrap_median_ratio(base, base_n, head, head_n, rules->resamples, 1, &low, &high))
        return -1;
    out->interval_low = low - 1;
    out->interval_high = high - 1;
    judge(rules, out);
    return 0;
}

/* Each launch's ratio head / base and its logarithm; the ratios' statistics. Returns 0, or -1 (memory). */
static int launch_ratios(const double *base, const double *head, int n, double *ratios, double *logs,
                         struct sample_stats *r)
{
    for (int i = 0; i < n; ++i) {
        ratios[i] = head[i] / base[i];
        logs[i] = log(ratios[i]);
    }
    return stats_compute(ratios, n, r);
}

/* The paired verdict of n launches' ratios: their spread, the signed-rank test and the interval of their median. */
static int judge_paired(const struct verdict_rules *rules, const double *ratios, const double *logs, int n,
                        const struct sample_stats *r, struct timing_comparison *out)
{
    double low, high;
    out->base_spread = out->head_spread = (r->q3 - r->q1) / r->median;
    out->p_value = out->p_family = wilcoxon_signed_rank_p(logs, n);
    if (isnan(out->p_value) || bootstrap(ratios, n, NULL, 0, rules->resamples, 1, &low, &high))
        return -1;
    out->interval_low = low - 1;
    out->interval_high = high - 1;
    judge(rules, out);
    return 0;
}

int compare_timings_paired(const double *base, const double *head, int n, const struct verdict_rules *rules,
                           double round_floor, struct timing_comparison *out)
{
    struct sample_stats b, h, r;
    int too_few = begin(n, n, rules, round_floor, out);
    double *ratios = malloc((size_t)(n + 1) * sizeof *ratios), *logs = malloc((size_t)(n + 1) * sizeof *logs);
    int failed = !ratios || !logs || stats_compute(base, n, &b) || stats_compute(head, n, &h) ||
                 launch_ratios(base, head, n, ratios, logs, &r);
    out->paired = 1;
    if (!failed) {
        out->base_median = b.median;
        out->head_median = h.median;
        out->change = r.median - 1;
        failed = !too_few && judge_paired(rules, ratios, logs, n, &r, out);
    }
    free(ratios);
    free(logs);
    return failed ? -1 : 0;
}

static int by_p_value(const void *a, const void *b)
{
    return by_value(&(*(struct timing_comparison *const *)a)->p_value,
                    &(*(struct timing_comparison *const *)b)->p_value);
}

int verdict_holm(struct timing_comparison **units, int m, const struct verdict_rules *rules)
{
    struct timing_comparison **sorted = malloc((size_t)(m + 1) * sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, units, (size_t)m * sizeof *sorted);
    qsort(sorted, (size_t)m, sizeof *sorted, by_p_value);
    double running = 0;
    for (int i = 0; i < m; ++i) {
        running = fmax(running, fmin(1.0, (m - i) * sorted[i]->p_value));
        sorted[i]->p_family = running;
        sorted[i]->family = m;
        judge(rules, sorted[i]);
    }
    free(sorted);
    return 0;
}
