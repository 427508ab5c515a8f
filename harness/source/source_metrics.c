#include <string.h>

#include "source_metrics.h"

#define LINE_NAME(id, name, ...) name,
static const char *const line_names[] = {LINE_METRICS(LINE_NAME)};
#undef LINE_NAME

const char *line_metric_name(enum line_metric id)
{
    return line_names[id];
}

static double excess(uint64_t count, uint64_t ideal)
{
    return count > ideal ? (double)(count - ideal) : 0.0;
}

/* Whether an instruction reads shared memory (1), writes it (0), or neither is known (-1): LDS and STS as CUPTI
 * counts them; ldmatrix (LDSM) reads and cp.async (LDGSTS) writes, though op_shared_ld/st count neither (the tensor
 * ladder's ldmatrix rung: 0 shared loads, all its conflicts in its LDSM). */
static int reads_shared(const uint64_t sass[SASS_METRIC_COUNT], const char *opcode)
{
    if (sass[SASS_SHARED_LD_INST] || (opcode && strncmp(opcode, "LDSM", 4) == 0))
        return 1;
    if (sass[SASS_SHARED_ST_INST] || (opcode && strncmp(opcode, "LDGSTS", 6) == 0))
        return 0;
    return -1;
}

/* The opcodes that convert between types: to float (I2F, I2FP), to integer (F2I, F2IP), between float (F2F, F2FP)
 * and integer widths (I2I, I2IP), and float rounding (FRND). */
static int converts(const char *opcode)
{
    static const char *const kinds[] = {"I2F", "F2I", "F2F", "I2I", "FRND"};
    for (size_t i = 0; opcode && i < sizeof kinds / sizeof *kinds; ++i)
        if (strncmp(opcode, kinds[i], strlen(kinds[i])) == 0)
            return 1;
    return 0;
}

/* An instruction is a load or a store, never both, so its wavefronts and sectors belong to the kind it is. */
void line_metrics_of_instruction(const uint64_t sass[SASS_METRIC_COUNT], const char *opcode,
                                 double out[LINE_METRIC_COUNT])
{
    double wavefronts = (double)sass[SASS_SHARED_WAVEFRONTS], sectors = (double)sass[SASS_GLOBAL_SECTORS];
    int side = reads_shared(sass, opcode);
    out[LINE_INST_EXECUTED] = (double)sass[SASS_INST_EXECUTED];
    out[LINE_SHARED_INSTRUCTIONS] = (double)(sass[SASS_SHARED_LD_INST] + sass[SASS_SHARED_ST_INST]);
    out[LINE_SHARED_LD_WAVEFRONTS] = side == 1 ? wavefronts : 0.0;
    out[LINE_SHARED_ST_WAVEFRONTS] = side == 0 ? wavefronts : 0.0;
    out[LINE_SHARED_WAVEFRONTS] = wavefronts;
    out[LINE_SHARED_WAVEFRONTS_IDEAL] = (double)sass[SASS_SHARED_WAVEFRONTS_IDEAL];
    out[LINE_SHARED_EXCESS_WAVEFRONTS] = excess(sass[SASS_SHARED_WAVEFRONTS], sass[SASS_SHARED_WAVEFRONTS_IDEAL]);
    out[LINE_GLOBAL_LD_REQUESTS] = (double)sass[SASS_GLOBAL_LD_INST];
    out[LINE_GLOBAL_ST_REQUESTS] = (double)sass[SASS_GLOBAL_ST_INST];
    out[LINE_GLOBAL_LD_SECTORS] = sass[SASS_GLOBAL_LD_INST] ? sectors : 0.0;
    out[LINE_GLOBAL_ST_SECTORS] = sass[SASS_GLOBAL_ST_INST] ? sectors : 0.0;
    out[LINE_GLOBAL_SECTORS] = sectors;
    out[LINE_GLOBAL_SECTORS_IDEAL] = (double)sass[SASS_GLOBAL_SECTORS_IDEAL];
    out[LINE_GLOBAL_EXCESS_SECTORS] = excess(sass[SASS_GLOBAL_SECTORS], sass[SASS_GLOBAL_SECTORS_IDEAL]);
    out[LINE_THREAD_INST_EXECUTED] = (double)sass[SASS_THREAD_INST_EXECUTED];
    out[LINE_PREDICATED_OFF_LANES] = excess(sass[SASS_THREAD_INST_EXECUTED], sass[SASS_THREAD_INST_PRED_ON]);
    out[LINE_CONVERSIONS] = converts(opcode) ? (double)sass[SASS_THREAD_INST_PRED_ON] : 0.0;
}
