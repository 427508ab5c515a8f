/* The host's monotonic clock, for budgets and overheads measured on the host (GPU time uses CUDA events). */
#ifndef MEMSCOPE_HOST_CLOCK_H
#define MEMSCOPE_HOST_CLOCK_H

#include <stdint.h>

double host_seconds(void);
/* The host's real-time clock in nanoseconds: one clock for every process of the host, where each process's CUPTI
 * timestamps are set against it. */
uint64_t host_realtime_ns(void);

#endif
