/*
 * The double-precision reference product, on the CPU for small products (exact
 * to double rounding, independent of any GPU library: at most the multiply-adds
 * of a square of CPU_REFERENCE_MAX_WIDTH) and through cublasDgemm above that,
 * where the CPU would take minutes.
 */
#ifndef MEMSCOPE_REFERENCE_H
#define MEMSCOPE_REFERENCE_H

#include "../common/error.h"
#include "../gpu/gpu.h"
#include "../../kernels/matmul.h"

#define CPU_REFERENCE_MAX_WIDTH 512

const char *reference_name(struct matmul_shape shape);
/* Bytes of device memory the reference needs at this shape. */
size_t reference_device_bytes(struct matmul_shape shape);
/* m, n and p row-major: rows x inner, inner x cols, rows x cols. */
void reference_cpu(const double *m, const double *n, double *p, struct matmul_shape shape);
int reference_compute(struct gpu *g, const double *m, const double *n, double *p, struct matmul_shape shape,
                      struct error *e);

#endif
