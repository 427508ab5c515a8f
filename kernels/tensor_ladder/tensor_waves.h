/*
 * The grid of the even_waves rung, in C because its rule is plain arithmetic that tests/kernels checks without a
 * GPU. A persistent block walks the tiles b, b + G, b + 2G, ... so the kernel takes R = ceil(tiles / G) rounds of
 * tiles. One block per SM gives the fewest rounds; even_waves keeps that R and launches the fewest blocks that
 * still finish in R rounds, so that every round but the last is whole and the last is as full as it can be.
 */
#ifndef MEMSCOPE_TENSOR_WAVES_H
#define MEMSCOPE_TENSOR_WAVES_H

/* Blocks for `tiles` tiles on `sms` SMs (both >= 1): 512 tiles on 132 SMs take 4 rounds either way, on 128 blocks
 * every round is whole; 1050 tiles need 8 rounds, which only 132 blocks give. */
static inline int even_waves_grid(int tiles, int sms)
{
    const int rounds = (tiles + sms - 1) / sms;
    return (tiles + rounds - 1) / rounds;
}

#endif
