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

/* An operand's extents in a product of this shape (M rows x inner, N inner x cols, P rows x cols), its elements, and
 * the three operands' together. */
void operands_extents(struct matmul_shape shape, enum operand which, int *rows, int *cols);
size_t operands_count(struct matmul_shape shape, enum operand which);
size_t operands_total(struct matmul_shape shape);

/* Significant bits of a precision's values, the implicit one included: fp32 24, fp64 53, bf16 8, fp16 11, tf32 11. */
int operands_significand_bits(enum matmul_precision precision);

/* Uniform in [-1, 1), already rounded to the variant's precision so the reference sees the same values: every
 * value is a multiple of 2^-(bits - 1), exact in bf16, fp16 and tf32 alike. */
void operands_fill_random(double *x, size_t count, uint64_t seed, enum matmul_precision precision);

bool operands_column_major(enum matmul_layout layout, enum operand which);
/* A rows x cols matrix between its logical row-major doubles and its stored form. */
void operands_pack(const double *logical, void *stored, int rows, int cols, enum matmul_precision precision,
                   bool column_major);
void operands_unpack(const void *stored, double *logical, int rows, int cols, enum matmul_precision precision,
                     bool column_major);

/* The 16-bit types' encodings, rounded to nearest (ties to even) through the float nearest x; exact both ways for
 * the values operands_fill_random draws. */
uint16_t operands_bf16_from_double(double x);
double operands_double_from_bf16(uint16_t b);
uint16_t operands_fp16_from_double(double x);
double operands_double_from_fp16(uint16_t h);

#endif
