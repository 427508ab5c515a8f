/*
 * How often to sample: each SM takes one sample every 2^p cycles, and a
 * kernel's share of each stall reason is only as good as its sample count.
 * A fixed period would give a 0.05 ms kernel a few hundred samples and a
 * 500 ms one millions (and seconds of decoding), so the period is chosen per
 * call from its median time, for STALL_TARGET_SAMPLES samples or up to 8 times
 * fewer: changing the period costs about 0.35 s (H100), so periods come in
 * steps of 2^3, and a width's calls share the period of its longest kernel,
 * the shorter ones launched as many times as it takes to gather
 * STALL_MIN_SAMPLES (and again if they gave fewer than their time predicts:
 * a grid that leaves SMs without warps), unless those launches would cost
 * more than a change of period (stall_schedule, stall_more_launches). The
 * next width keeps the period in use where its longest kernel gets at most
 * STALL_KEEP_MAX_SAMPLES a launch at it: each sample slowed the kernel by 25
 * to 40 ns, so 2.5 million cost about 0.1 s, and 2.79 million in one launch
 * were taken without a drop (H100). The period is never below 2^9 cycles:
 * at 2^5 the hardware dropped 73 % of a 0.13 ms kernel's samples (H100).
 */
#ifndef MEMSCOPE_SAMPLING_PERIOD_H
#define MEMSCOPE_SAMPLING_PERIOD_H

#define STALL_TARGET_SAMPLES 200000.0
#define STALL_PERIOD_MIN 9
#define STALL_PERIOD_MAX 30
#define STALL_PERIOD_STEP 3
#define STALL_MIN_SAMPLES (STALL_TARGET_SAMPLES / 8)
#define STALL_PERIOD_CHANGE_MS 350.0
#define STALL_MAX_LAUNCHES 10000
#define STALL_KEEP_MAX_SAMPLES 2.5e6

/* The period exponent p (9, 12, ... 30) for a kernel of kernel_ms on sms SMs at clock_mhz. */
unsigned stall_period_log2(double kernel_ms, int sms, double clock_mhz);

/* How many launches of a kernel of kernel_ms sampled every 2^period_log2 cycles gather STALL_MIN_SAMPLES
 * (at least 1, at most STALL_MAX_LAUNCHES). */
unsigned stall_launches(double kernel_ms, unsigned period_log2, int sms, double clock_mhz);

/* The launches to add to `launches` that gave only `samples` in gpu_ms, to reach STALL_MIN_SAMPLES at the rate
 * they gave: 0 when they reached it, gave none, or the added launches would take longer than a change of period. */
unsigned stall_more_launches(unsigned launches, unsigned long long samples, double gpu_ms);

/* A width's n calls of kernel_ms[i]: the period and the launches of each, and order[], the order to sample them
 * in (the longest period first, so that each period is set once). in_use is the period the previous width
 * sampled at, kept where that costs less than a change (0: none sampled yet, so any period is free). */
void stall_schedule(const double *kernel_ms, int n, int sms, double clock_mhz, unsigned in_use,
                    unsigned *period_log2, unsigned *launches, int *order);

#endif
