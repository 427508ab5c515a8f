/*
 * How often to sample: each SM takes one sample every 2^p cycles, and a
 * kernel's share of each stall reason is only as good as its sample count.
 * A fixed period would give a 0.05 ms kernel a few hundred samples and a
 * 500 ms one millions (and seconds of decoding), so the period is chosen per
 * call from its median time, for STALL_TARGET_SAMPLES samples or up to 8 times
 * fewer: changing the period costs about 0.35 s (H100), so periods come in
 * steps of 2^3 and a width's calls share a few. It is never below 2^9 cycles:
 * at 2^5 the hardware dropped 73 % of a 0.13 ms kernel's samples (H100).
 */
#ifndef MEMSCOPE_SAMPLING_PERIOD_H
#define MEMSCOPE_SAMPLING_PERIOD_H

#define STALL_TARGET_SAMPLES 200000.0
#define STALL_PERIOD_MIN 9
#define STALL_PERIOD_MAX 30
#define STALL_PERIOD_STEP 3

/* The period exponent p (9, 12, ... 30) for a kernel of kernel_ms on sms SMs at clock_mhz. */
unsigned stall_period_log2(double kernel_ms, int sms, double clock_mhz);

#endif
