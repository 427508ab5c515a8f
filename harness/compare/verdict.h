/*
 * Is head slower than base? The statistics behind memscope-compare's verdict,
 * on the raw timing samples of one variant x size.
 *
 * SLOWER or FASTER only when all of these hold:
 *   - the Mann-Whitney U test (two-sided, normal approximation with tie
 *     correction) rejects "same distribution" at level alpha;
 *   - the bootstrap 95 % interval of median(head) / median(base) excludes 1;
 *   - the change of the medians is larger than the noise floor and larger than
 *     either side's own spread (interquartile range over median). The floor is
 *     the rules' (2 %), or the unit's own run-to-run noise where that is larger
 *     (round_noise.h).
 * SAME when the whole interval lies within the floor. UNSURE otherwise, with
 * the reason: too few samples, a spread wider than the change, or an interval
 * that reaches past the floor.
 *
 * Many units at once (verdict_holm): a comparison tests every unit it pairs, and at alpha each a hundred units of
 * noise would call one of them changed. Holm's step-down correction holds the chance that any unit's test rejects
 * by chance at alpha: the i-th smallest of m p-values is weighed as (m - i + 1) p, never less than the one before
 * it, and that family p stands for p in the rules above.
 *
 * Paired (compare_timings_paired): where the two sides' samples are the same
 * launches in the same order (a program's kernel, each launch of it on both
 * sides), each launch's ratio head / base is the measure: the Wilcoxon
 * signed-rank test on their logarithms, the bootstrap interval of their median
 * (the change), and their spread. A kernel launched at several shapes spreads
 * widely as a whole, so unpaired its verdict could only be UNSURE; launch by
 * launch each ratio compares one shape with itself.
 */
#ifndef MEMSCOPE_COMPARE_STATS_H
#define MEMSCOPE_COMPARE_STATS_H

enum verdict { VERDICT_SAME, VERDICT_SLOWER, VERDICT_FASTER, VERDICT_UNSURE };

struct verdict_rules {
    double floor;      /* relative change below which a difference does not matter (0.02) */
    double alpha;      /* significance level of the U test (0.01) */
    int min_samples;   /* per side (5) */
    int resamples;     /* bootstrap resamples (2000) */
};

struct timing_comparison {
    int base_n, head_n;
    double base_median, head_median;
    double base_spread, head_spread; /* IQR / median */
    double change;                   /* head_median / base_median - 1 */
    double interval_low, interval_high; /* of head_median / base_median - 1, 95 % */
    double p_value;
    double p_family;        /* p weighed by Holm over the family of units tested (verdict_holm); p_value alone */
    int family;             /* the units tested in that family; 1 alone */
    int paired;             /* 1 where launches were paired: change, interval and spreads are of their ratios */
    double floor;           /* the floor applied: the rules', or the rounds' noise floor where larger */
    int floor_from_rounds;  /* 1 where the rounds' noise set it */
    enum verdict verdict;
    char reason[192];
};

extern const struct verdict_rules VERDICT_RULES_DEFAULT;

const char *verdict_name(enum verdict v);

/* Two-sided p-value of the Mann-Whitney U test. */
double mann_whitney_p(const double *a, int na, const double *b, int nb);

/* Percentile bootstrap 95 % interval of median(b) / median(a); deterministic for a seed. */
int bootstrap_median_ratio(const double *a, int na, const double *b, int nb, int resamples, unsigned long long seed,
                           double *low, double *high);

/* Two-sided p-value of the Wilcoxon signed-rank test on d (zeros dropped; normal approximation, tie corrected). */
double wilcoxon_signed_rank_p(const double *d, int n);

/* The same verdict on n launches paired: base[i] and head[i] are one launch's time on each side. */
int compare_timings_paired(const double *base, const double *head, int n, const struct verdict_rules *rules,
                           double round_floor, struct timing_comparison *out);

/* The units of one comparison that ran a test, judged again on their family p (Holm's step-down over all m of them).
 * Returns 0, or -1 when memory cannot be had. */
int verdict_holm(struct timing_comparison **units, int m, const struct verdict_rules *rules);

/* round_floor: the unit's noise floor from its rounds (round_noise.h; 0 where unmeasured). Returns 0, or -1 when
 * memory cannot be had. */
int compare_timings(const double *base, int base_n, const double *head, int head_n, const struct verdict_rules *rules,
                    double round_floor, struct timing_comparison *out);

#endif
