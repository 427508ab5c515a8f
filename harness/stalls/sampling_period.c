#include <math.h>

#include "sampling_period.h"

static double sm_cycles(double kernel_ms, int sms, double clock_mhz)
{
    return kernel_ms * 1e-3 * clock_mhz * 1e6 * sms;
}

unsigned stall_period_log2(double kernel_ms, int sms, double clock_mhz)
{
    double cycles = sm_cycles(kernel_ms, sms, clock_mhz);
    if (!(cycles > 0.0))
        return STALL_PERIOD_MIN;
    double p = floor(log2(cycles / STALL_TARGET_SAMPLES));
    if (p <= STALL_PERIOD_MIN)
        return STALL_PERIOD_MIN;
    unsigned steps = ((unsigned)(p - STALL_PERIOD_MIN) + STALL_PERIOD_STEP - 1) / STALL_PERIOD_STEP;
    unsigned stepped = STALL_PERIOD_MIN + STALL_PERIOD_STEP * steps;
    return stepped > STALL_PERIOD_MAX ? STALL_PERIOD_MAX : stepped;
}

static double samples_a_launch(double kernel_ms, unsigned period_log2, int sms, double clock_mhz)
{
    return sm_cycles(kernel_ms, sms, clock_mhz) / ldexp(1.0, (int)period_log2);
}

/* The launches of per_launch samples each that gather STALL_MIN_SAMPLES, at most STALL_MAX_LAUNCHES. */
static double launches_for(double per_launch)
{
    double launches = ceil(STALL_MIN_SAMPLES / per_launch);
    return launches > STALL_MAX_LAUNCHES ? STALL_MAX_LAUNCHES : launches;
}

unsigned stall_launches(double kernel_ms, unsigned period_log2, int sms, double clock_mhz)
{
    double per_launch = samples_a_launch(kernel_ms, period_log2, sms, clock_mhz);
    if (!(per_launch > 0.0) || per_launch >= STALL_MIN_SAMPLES)
        return 1;
    return (unsigned)launches_for(per_launch);
}

unsigned stall_more_launches(unsigned launches, unsigned long long samples, double gpu_ms)
{
    if (launches == 0 || samples == 0 || samples >= STALL_MIN_SAMPLES)
        return 0;
    double more = launches_for((double)samples / launches) - launches;
    if (!(more > 0.0) || more * gpu_ms / launches > STALL_PERIOD_CHANGE_MS)
        return 0;
    return (unsigned)more;
}

/* The period the longest kernel starts from: the one in use, unless it is finer than the kernel's own and gives
 * more than STALL_KEEP_MAX_SAMPLES a launch (a coarser one is judged by its launches, below). */
static unsigned starting_period(double longest_ms, unsigned own, unsigned in_use, int sms, double clock_mhz)
{
    if (in_use == 0 || (in_use < own && samples_a_launch(longest_ms, in_use, sms, clock_mhz) > STALL_KEEP_MAX_SAMPLES))
        return own;
    return in_use;
}

void stall_schedule(const double *kernel_ms, int n, int sms, double clock_mhz, unsigned in_use,
                    unsigned *period_log2, unsigned *launches, int *order)
{
    for (int i = 0; i < n; ++i) { /* each call's own period, the longest first */
        period_log2[i] = stall_period_log2(kernel_ms[i], sms, clock_mhz);
        int at = i;
        for (; at > 0 && period_log2[order[at - 1]] < period_log2[i]; --at)
            order[at] = order[at - 1];
        order[at] = i;
    }
    unsigned set = n > 0 ? starting_period(kernel_ms[order[0]], period_log2[order[0]], in_use, sms, clock_mhz)
                         : STALL_PERIOD_MIN;
    for (int k = 0; k < n; ++k) {
        int i = order[k];
        unsigned shared = stall_launches(kernel_ms[i], set, sms, clock_mhz);
        if (shared * kernel_ms[i] > STALL_PERIOD_CHANGE_MS)
            set = period_log2[i]; /* cheaper to change the period than to launch so often */
        period_log2[i] = set;
        launches[i] = stall_launches(kernel_ms[i], set, sms, clock_mhz);
    }
}
