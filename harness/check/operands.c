#include <float.h>
#include <math.h>
#include <string.h>

#include "operands.h"

/* splitmix64: tiny, fast, and good enough to make inputs that are not zeros or patterns. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int operands_significand_bits(enum matmul_precision precision)
{
    static const int bits[] = {[MATMUL_FP32] = FLT_MANT_DIG, [MATMUL_FP64] = DBL_MANT_DIG, [MATMUL_BF16] = 8,
                               [MATMUL_FP16] = 11, [MATMUL_TF32] = 11};
    return bits[precision];
}

void operands_fill_random(double *x, size_t count, uint64_t seed, enum matmul_precision precision)
{
    /* Draw only as many bits as the precision holds, so 2u - 1 is exact and never rounds up to 1. */
    int bits = operands_significand_bits(precision);
    double scale = ldexp(1.0, -bits);
    uint64_t state = seed;
    for (size_t i = 0; i < count; ++i) {
        double unit = (double)(next_random(&state) >> (64 - bits)) * scale;
        x[i] = 2.0 * unit - 1.0;
    }
}

void operands_extents(struct matmul_shape shape, enum operand which, int *rows, int *cols)
{
    *rows = which == OPERAND_N ? shape.inner : shape.rows;
    *cols = which == OPERAND_M ? shape.inner : shape.cols;
}

size_t operands_count(struct matmul_shape shape, enum operand which)
{
    int rows, cols;
    operands_extents(shape, which, &rows, &cols);
    return (size_t)rows * cols;
}

size_t operands_total(struct matmul_shape shape)
{
    return operands_count(shape, OPERAND_M) + operands_count(shape, OPERAND_N) + operands_count(shape, OPERAND_P);
}

bool operands_column_major(enum matmul_layout layout, enum operand which)
{
    switch (layout) {
    case MATMUL_ROW_MAJOR:
        return false;
    case MATMUL_N_COL_MAJOR:
        return which == OPERAND_N;
    case MATMUL_COL_MAJOR:
        return true;
    }
    return false;
}

static size_t stored_index(int row, int col, int rows, int cols, bool column_major)
{
    return column_major ? (size_t)col * rows + row : (size_t)row * cols + col;
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* bf16 is the top half of a float: rounded to nearest, ties to even; a NaN stays a (quiet) NaN. */
uint16_t operands_bf16_from_double(double x)
{
    uint32_t u = float_bits((float)x);
    if (isnan(x))
        return (uint16_t)((u >> 16) | 0x0040);
    return (uint16_t)((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
}

double operands_double_from_bf16(uint16_t b)
{
    return float_of_bits((uint32_t)b << 16);
}

/* IEEE binary16 (1, 5, 10 bits), rounded to nearest, ties to even, from the float nearest x: overflow to infinity
 * at 65520, subnormals below 2^-14 in steps of 2^-24. */
uint16_t operands_fp16_from_double(double x)
{
    uint32_t u = float_bits((float)x), sign = (u >> 16) & 0x8000, magnitude = u & 0x7FFFFFFF;
    if (magnitude > 0x7F800000) /* NaN */
        return (uint16_t)(sign | 0x7E00);
    if (magnitude >= 0x477FF000) /* 65520 and up round to infinity */
        return (uint16_t)(sign | 0x7C00);
    if (magnitude >= 0x38800000) { /* 2^-14 and up: normal; rebias the exponent from 127 to 15 */
        uint32_t rebiased = magnitude - 0x38000000;
        return (uint16_t)(sign | ((rebiased + 0x0FFF + ((rebiased >> 13) & 1)) >> 13));
    }
    /* Subnormal: a whole number of 2^-24 (1024 of them is the smallest normal, 0x0400: the encoding carries). */
    return (uint16_t)(sign | (uint32_t)lrint(ldexp(fabs(x), 24)));
}

double operands_double_from_fp16(uint16_t h)
{
    int exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
    double sign = h & 0x8000 ? -1.0 : 1.0;
    if (exponent == 0x1F)
        return mantissa ? NAN : sign * INFINITY;
    if (exponent == 0)
        return sign * ldexp(mantissa, -24);
    return sign * ldexp(1024 + mantissa, exponent - 25);
}

static void store(void *stored, size_t i, enum matmul_precision precision, double x)
{
    switch (precision) {
    case MATMUL_FP64:
        ((double *)stored)[i] = x;
        return;
    case MATMUL_BF16:
        ((uint16_t *)stored)[i] = operands_bf16_from_double(x);
        return;
    case MATMUL_FP16:
        ((uint16_t *)stored)[i] = operands_fp16_from_double(x);
        return;
    case MATMUL_FP32:
    case MATMUL_TF32: /* stored as float; the tensor cores read 10 of its mantissa bits */
        ((float *)stored)[i] = (float)x;
        return;
    }
}

static double load(const void *stored, size_t i, enum matmul_precision precision)
{
    switch (precision) {
    case MATMUL_FP64:
        return ((const double *)stored)[i];
    case MATMUL_BF16:
        return operands_double_from_bf16(((const uint16_t *)stored)[i]);
    case MATMUL_FP16:
        return operands_double_from_fp16(((const uint16_t *)stored)[i]);
    case MATMUL_FP32:
    case MATMUL_TF32:
        break;
    }
    return ((const float *)stored)[i];
}

void operands_pack(const double *logical, void *stored, int rows, int cols, enum matmul_precision precision,
                   bool column_major)
{
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            store(stored, stored_index(r, c, rows, cols, column_major), precision, logical[(size_t)r * cols + c]);
}

void operands_unpack(const void *stored, double *logical, int rows, int cols, enum matmul_precision precision,
                     bool column_major)
{
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            logical[(size_t)r * cols + c] = load(stored, stored_index(r, c, rows, cols, column_major), precision);
}
