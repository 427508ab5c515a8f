/*
 * How many blocks of a kernel one SM holds by each of its resources alone (registers, shared memory, the block's
 * size against the SM's warps and blocks), by the rules of NVIDIA's occupancy calculator for compute capability 7.0
 * and newer: registers are given to a warp in units of 256, shared memory to a block in units of 128 bytes with the
 * runtime's reserve per block added. The smallest of the three is the blocks the SM holds (what
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor answers); the findings name the resource that sets it. Host-only:
 * the run, the profile's summary and the tests call it alike.
 */
#ifndef MEMSCOPE_OCCUPANCY_H
#define MEMSCOPE_OCCUPANCY_H

/* An SM's resources (cudaDeviceProp, or environment.csv's sm_* keys); NAN where unknown. */
struct sm_limits {
    double max_warps, max_blocks, registers, shared_bytes, reserved_shared_per_block;
};

/* Blocks per SM by each resource alone; NAN where the kernel's figure or the SM's is unknown. */
struct occupancy_limits {
    double by_registers, by_shared, by_block_size;
};

/* registers_per_thread, shared_per_block (static and dynamic, bytes) and threads_per_block as the kernel launched. */
void occupancy_limits(const struct sm_limits *sm, double registers_per_thread, double shared_per_block,
                      double threads_per_block, struct occupancy_limits *out);

#endif
