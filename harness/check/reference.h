/*
 * The double-precision reference product, on the CPU for small widths (exact
 * to double rounding, independent of any GPU library) and through cublasDgemm
 * above that, where the CPU would take minutes.
 */
#ifndef MEMSCOPE_REFERENCE_H
#define MEMSCOPE_REFERENCE_H

#include "../common/error.h"
#include "../gpu/gpu.h"

#define CPU_REFERENCE_MAX_WIDTH 512

const char *reference_name(int width);
/* Bytes of device memory the reference needs at this width. */
size_t reference_device_bytes(int width);
void reference_cpu(const double *m, const double *n, double *p, int width);
int reference_compute(struct gpu *g, const double *m, const double *n, double *p, int width, struct error *e);

#endif
