#include <math.h>

#include "sampling_period.h"

unsigned stall_period_log2(double kernel_ms, int sms, double clock_mhz)
{
    double cycles = kernel_ms * 1e-3 * clock_mhz * 1e6 * sms;
    if (!(cycles > 0.0))
        return STALL_PERIOD_MIN;
    double p = floor(log2(cycles / STALL_TARGET_SAMPLES));
    if (p <= STALL_PERIOD_MIN)
        return STALL_PERIOD_MIN;
    unsigned steps = ((unsigned)(p - STALL_PERIOD_MIN) + STALL_PERIOD_STEP - 1) / STALL_PERIOD_STEP;
    unsigned stepped = STALL_PERIOD_MIN + STALL_PERIOD_STEP * steps;
    return stepped > STALL_PERIOD_MAX ? STALL_PERIOD_MAX : stepped;
}
