/* The host's monotonic clock, for budgets and overheads measured on the host (GPU time uses CUDA events). */
#ifndef MEMSCOPE_HOST_CLOCK_H
#define MEMSCOPE_HOST_CLOCK_H

double host_seconds(void);

#endif
