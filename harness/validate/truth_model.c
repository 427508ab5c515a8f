#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "truth_model.h"

#define WARP 32
#define SECTOR_BYTES 32
#define BANKS 32
#define BANK_BYTES 4

static int sectors_of_warp(int first_thread, int n, int stride, int offset)
{
    uint64_t seen[WARP];
    int count = 0;
    for (int lane = 0; lane < WARP && first_thread + lane < n; ++lane) {
        uint64_t sector = ((uint64_t)(first_thread + lane) * stride + offset) * sizeof(float) / SECTOR_BYTES;
        int known = 0;
        for (int k = 0; k < count && !known; ++k)
            known = seen[k] == sector;
        if (!known)
            seen[count++] = sector;
    }
    return count;
}

/* Each full warp starts 32 * stride floats (a whole number of sectors) after the one before, so all full
 * warps touch as many sectors as the first; only a last, partial warp can differ. */
double model_copy_sectors_per_request(int n, int stride, int offset)
{
    int full = n / WARP, requests = (n + WARP - 1) / WARP;
    if (requests == 0)
        return 0.0;
    double sectors = full > 0 ? (double)full * sectors_of_warp(0, n, stride, offset) : 0.0;
    if (requests > full)
        sectors += sectors_of_warp(full * WARP, n, stride, offset);
    return sectors / requests;
}

double model_copy_load_efficiency(int n, int stride, int offset)
{
    double sectors = model_copy_sectors_per_request(n, stride, offset) * ((n + WARP - 1) / WARP);
    return 100.0 * n * sizeof(float) / (sectors * SECTOR_BYTES);
}

/* The wavefronts one shared access takes: each bank delivers one distinct 4-byte word a wavefront, so the bank asked
 * for the most distinct words sets the count. n accesses of bytes_each bytes from the byte addresses given. */
static int busiest_bank(const uint64_t *addresses, int n, int bytes_each)
{
    uint64_t words[BANKS][WARP * 4];
    int per_bank[BANKS];
    memset(per_bank, 0, sizeof per_bank);
    for (int i = 0; i < n; ++i)
        for (int part = 0; part < bytes_each / BANK_BYTES; ++part) {
            uint64_t word = addresses[i] / BANK_BYTES + part;
            int bank = (int)(word % BANKS), known = 0;
            for (int k = 0; k < per_bank[bank] && !known; ++k)
                known = words[bank][k] == word;
            if (!known)
                words[bank][per_bank[bank]++] = word;
        }
    int busiest = 0;
    for (int b = 0; b < BANKS; ++b)
        busiest = per_bank[b] > busiest ? per_bank[b] : busiest;
    return busiest;
}

int model_shared_wavefronts(int stride, int elem_bytes)
{
    uint64_t addresses[WARP];
    for (int lane = 0; lane < WARP; ++lane)
        addresses[lane] = (uint64_t)lane * stride * elem_bytes;
    int busiest = busiest_bank(addresses, WARP, elem_bytes);
    int minimum = WARP * elem_bytes / (BANKS * BANK_BYTES);
    return busiest > minimum ? busiest : minimum;
}

/* kernels/truth/truth_ldmatrix.cu's addresses: lane l gives row l % 16 of a 64-row tile, 16-byte chunk l / 16, the
 * chunk placed at chunk ^ (row % 8) where swizzled. The 8 lanes of each matrix are served together, one matrix
 * after the other. */
int model_ldmatrix_x4_wavefronts(int pitch_bytes, int swizzled)
{
    int wavefronts = 0;
    for (int matrix = 0; matrix < 4; ++matrix) {
        uint64_t rows[8];
        for (int i = 0; i < 8; ++i) {
            int lane = 8 * matrix + i, row = lane % 16, chunk = lane / 16;
            rows[i] = (uint64_t)row * pitch_bytes + 16u * (unsigned)(swizzled ? chunk ^ (row % 8) : chunk);
        }
        wavefronts += busiest_bank(rows, 8, 16);
    }
    return wavefronts;
}

double model_mma_m16n8k16_ops(int warps, int repetitions)
{
    return (double)warps * repetitions * (2.0 * 16 * 8 * 16);
}

static double padded(int size, int tile)
{
    return (double)((size + tile - 1) / tile) * tile;
}

double model_gemm_tensor_ops(int m, int n, int k, int tile_m, int tile_n, int tile_k)
{
    return 2.0 * padded(m, tile_m) * padded(n, tile_n) * padded(k, tile_k);
}

/* nvjet kernels: "..._192x128_64x5_..." (tile along cuBLAS's M and N, k step, stages). */
static int nvjet_tile(const char *kernel, int *cublas_m, int *cublas_n, int *k)
{
    int stages;
    if (strncmp(kernel, "nvjet_", 6) != 0)
        return 0;
    for (const char *p = strchr(kernel, '_'); p; p = strchr(p + 1, '_'))
        if (sscanf(p, "_%dx%d_%dx%d_", cublas_m, cublas_n, k, &stages) == 4)
            return 1;
    return 0;
}

int model_cublas_tile(const char *kernel, int *tile_m, int *tile_n, int *tile_k)
{
    const char *xmma = strstr(kernel, "_xmma_gemm_") ? strstr(kernel, "tilesize") : NULL;
    if (nvjet_tile(kernel, tile_n, tile_m, tile_k))
        return 1;
    return xmma && sscanf(xmma, "tilesize%dx%dx%d", tile_m, tile_n, tile_k) == 3;
}
