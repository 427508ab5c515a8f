/*
 * Host-side operands. Every matrix is generated and compared in its logical
 * row-major form as doubles; pack/unpack convert to and from the precision and
 * storage order a variant expects, so one reference serves every layout.
 */
#ifndef MEMSCOPE_OPERANDS_H
#define MEMSCOPE_OPERANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../kernels/matmul.h"

enum operand { OPERAND_M, OPERAND_N, OPERAND_P };

/* Uniform in [-1, 1), already rounded to the variant's precision so the reference sees the same values. */
void operands_fill_random(double *x, size_t count, uint64_t seed, enum matmul_precision precision);

bool operands_column_major(enum matmul_layout layout, enum operand which);
void operands_pack(const double *logical, void *stored, int width, enum matmul_precision precision,
                   bool column_major);
void operands_unpack(const void *stored, double *logical, int width, enum matmul_precision precision,
                     bool column_major);

#endif
