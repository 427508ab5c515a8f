/*
 * How often to sample: each SM takes one sample every 2^p cycles, and a
 * kernel's share of each stall reason is only as good as its sample count.
 * A fixed period would give a 0.05 ms kernel a few hundred samples and a
 * 500 ms one millions (and seconds of decoding), so the period is chosen per
 * call from its median time, for STALL_TARGET_SAMPLES samples or up to 8 times
 * more: changing the period costs about 0.35 s (H100), so periods come in
 * steps of 2^3 and a width's calls share a few.
 */
#ifndef MEMSCOPE_SAMPLING_PERIOD_H
#define MEMSCOPE_SAMPLING_PERIOD_H

#define STALL_TARGET_SAMPLES 200000.0
#define STALL_PERIOD_MIN 5
#define STALL_PERIOD_MAX 29
#define STALL_PERIOD_STEP 3

/* The period exponent p (5, 8, ... 29) for a kernel of kernel_ms on sms SMs at clock_mhz. */
unsigned stall_period_log2(double kernel_ms, int sms, double clock_mhz);

#endif
