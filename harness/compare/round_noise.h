/*
 * The run-to-run noise of one unit, from the medians of its rounds. Samples within one run share its buffers'
 * placement, its clocks, cuBLAS's choice of kernel: a run can sit 1 % above another while its own samples agree to
 * 0.1 %, and pooled samples alone would call that a change. The rounds' medians measure it: their pooled standard
 * deviation (of their logarithms, about each side's mean) gives the change that a t-test on the rounds' medians
 * would need to call significant at the comparison's alpha, and that change is the unit's noise floor.
 */
#ifndef MEMSCOPE_COMPARE_ROUND_NOISE_H
#define MEMSCOPE_COMPARE_ROUND_NOISE_H

/* The p-quantile (0.5 < p < 1) of Student's t distribution with df degrees of freedom. */
double student_t_quantile(double p, int df);

/* The relative change of the medians a two-sided pooled t-test at alpha on the rounds' log medians would need,
 * exp(t(1 - alpha / 2, rounds - 2) x s x sqrt(1 / base_rounds + 1 / head_rounds)) - 1; 0 when a side has fewer
 * than 2 rounds (no noise measured). */
double round_noise_floor(const double *base_medians, int base_rounds, const double *head_medians, int head_rounds,
                         double alpha);

#endif
