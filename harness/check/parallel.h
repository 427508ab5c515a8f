/*
 * Host loops over a large matrix, run by several threads: one core takes a tenth of a second for a 4096 x 4096
 * matrix, and a run fills, packs, unpacks and compares one for every variant and size. Each thread takes a run of
 * units (rows, elements or fixed runs of elements); work that depends on each unit alone gives one thread's result.
 */
#ifndef MEMSCOPE_PARALLEL_H
#define MEMSCOPE_PARALLEL_H

#include <stddef.h>

/* Below this many elements in all, one thread does the work: starting threads would cost more. */
#define PARALLEL_MIN_ELEMENTS (1u << 20)
#define PARALLEL_MAX_THREADS 16

typedef void (*span_body)(void *context, size_t begin, size_t end);

/* body over [0, units) in runs, one a thread (units of unit_elements elements each); a thread that cannot be
 * started leaves its run to the caller's thread. */
void parallel_spans(size_t units, size_t unit_elements, span_body body, void *context);

/* x[0, count) set to 0 by several threads. A buffer just allocated has no pages yet: the driver's copy from the GPU
 * into such a buffer faults each page in on one thread, several times slower than the copy into pages it has. */
void parallel_zero(double *x, size_t count);

#endif
