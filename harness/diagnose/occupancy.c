#include <math.h>

#include "occupancy.h"

#define WARP_SIZE 32.0
#define REGISTER_UNIT 256.0 /* registers a warp is given at a time */
#define SHARED_UNIT 128.0   /* shared-memory bytes a block is given at a time */

static double round_up(double x, double unit)
{
    return ceil(x / unit) * unit;
}

/* Blocks by one resource: the SM's amount over a block's need; a kernel that needs none is held back by it no more
 * than by the SM's block count. NAN propagates from either figure. */
static double blocks_by(double available, double per_block, double max_blocks)
{
    return per_block == 0.0 ? max_blocks : floor(available / per_block);
}

void occupancy_limits(const struct sm_limits *sm, double registers_per_thread, double shared_per_block,
                      double threads_per_block, struct occupancy_limits *out)
{
    double warps_per_block = ceil(threads_per_block / WARP_SIZE);
    double registers_per_warp = round_up(registers_per_thread * WARP_SIZE, REGISTER_UNIT);
    double warps_by_registers = blocks_by(sm->registers, registers_per_warp, sm->max_warps);
    out->by_registers = floor(warps_by_registers / warps_per_block);
    out->by_shared = blocks_by(sm->shared_bytes, round_up(shared_per_block + sm->reserved_shared_per_block, SHARED_UNIT),
                               sm->max_blocks);
    double by_warps = floor(sm->max_warps / warps_per_block);
    out->by_block_size = sm->max_blocks < by_warps ? sm->max_blocks : by_warps; /* NAN when either is */
    if (isnan(sm->max_blocks))
        out->by_block_size = NAN;
}
