#include <float.h>
#include <math.h>

#include "operands.h"

/* splitmix64: tiny, fast, and good enough to make inputs that are not zeros or patterns. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void operands_fill_random(double *x, size_t count, uint64_t seed, enum matmul_precision precision)
{
    /* Draw only as many bits as the precision holds, so 2u - 1 is exact and never rounds up to 1. */
    int bits = precision == MATMUL_FP32 ? FLT_MANT_DIG : DBL_MANT_DIG;
    double scale = ldexp(1.0, -bits);
    uint64_t state = seed;
    for (size_t i = 0; i < count; ++i) {
        double unit = (double)(next_random(&state) >> (64 - bits)) * scale;
        x[i] = 2.0 * unit - 1.0;
    }
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

static size_t stored_index(int row, int col, int width, bool column_major)
{
    return column_major ? (size_t)col * width + row : (size_t)row * width + col;
}

void operands_pack(const double *logical, void *stored, int width, enum matmul_precision precision,
                   bool column_major)
{
    for (int r = 0; r < width; ++r)
        for (int c = 0; c < width; ++c) {
            size_t from = (size_t)r * width + c, to = stored_index(r, c, width, column_major);
            if (precision == MATMUL_FP32)
                ((float *)stored)[to] = (float)logical[from];
            else
                ((double *)stored)[to] = logical[from];
        }
}

void operands_unpack(const void *stored, double *logical, int width, enum matmul_precision precision,
                     bool column_major)
{
    for (int r = 0; r < width; ++r)
        for (int c = 0; c < width; ++c) {
            size_t to = (size_t)r * width + c, from = stored_index(r, c, width, column_major);
            logical[to] = precision == MATMUL_FP32 ? (double)((const float *)stored)[from]
                                                   : ((const double *)stored)[from];
        }
}
