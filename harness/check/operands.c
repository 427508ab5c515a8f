#include <float.h>
#include <math.h>
#include <string.h>

#include "operands.h"
#include "parallel.h"

/* splitmix64, the index-th draw from seed: tiny, fast, and good enough to make inputs that are not zeros or
 * patterns. Its state after n draws is seed + n times its increment, so any draw is computed alone. */
static uint64_t random_at(uint64_t seed, size_t index)
{
    uint64_t z = seed + ((uint64_t)index + 1) * 0x9E3779B97F4A7C15ull;
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

struct fill {
    double *x;
    uint64_t seed;
    int bits;
};

static void fill_span(void *context, size_t begin, size_t end)
{
    /* Draw only as many bits as the precision holds, so 2u - 1 is exact and never rounds up to 1. */
    const struct fill *f = context;
    double scale = ldexp(1.0, -f->bits);
    for (size_t i = begin; i < end; ++i) {
        double unit = (double)(random_at(f->seed, i) >> (64 - f->bits)) * scale;
        f->x[i] = 2.0 * unit - 1.0;
    }
}

void operands_fill_random(double *x, size_t count, uint64_t seed, enum matmul_precision precision)
{
    struct fill f = {x, seed, operands_significand_bits(precision)};
    parallel_spans(count, 1, fill_span, &f);
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

/* A conversion between the logical doubles and the stored form, by rows of the logical matrix. */
struct conversion {
    const double *from_logical; /* pack's */
    double *to_logical;         /* unpack's */
    const void *from_stored;    /* unpack's */
    void *to_stored;            /* pack's */
    int rows, cols;
    enum matmul_precision precision;
    bool column_major;
};

static void pack_rows(void *context, size_t begin, size_t end)
{
    const struct conversion *v = context;
    for (int r = (int)begin; r < (int)end; ++r)
        for (int c = 0; c < v->cols; ++c)
            store(v->to_stored, stored_index(r, c, v->rows, v->cols, v->column_major), v->precision,
                  v->from_logical[(size_t)r * v->cols + c]);
}

static void unpack_rows(void *context, size_t begin, size_t end)
{
    const struct conversion *v = context;
    for (int r = (int)begin; r < (int)end; ++r)
        for (int c = 0; c < v->cols; ++c)
            v->to_logical[(size_t)r * v->cols + c] =
                load(v->from_stored, stored_index(r, c, v->rows, v->cols, v->column_major), v->precision);
}

void operands_pack(const double *logical, void *stored, int rows, int cols, enum matmul_precision precision,
                   bool column_major)
{
    struct conversion v = {.from_logical = logical, .to_stored = stored, .rows = rows, .cols = cols,
                           .precision = precision, .column_major = column_major};
    parallel_spans((size_t)rows, (size_t)cols, pack_rows, &v);
}

void operands_unpack(const void *stored, double *logical, int rows, int cols, enum matmul_precision precision,
                     bool column_major)
{
    struct conversion v = {.to_logical = logical, .from_stored = stored, .rows = rows, .cols = cols,
                           .precision = precision, .column_major = column_major};
    parallel_spans((size_t)rows, (size_t)cols, unpack_rows, &v);
}
