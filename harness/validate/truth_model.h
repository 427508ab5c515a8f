/*
 * What the ground-truth kernels' metrics must be, computed from their address
 * patterns alone (32-byte sectors; 32 banks of 4 bytes; a wavefront serves at
 * most one word per bank and 128 bytes), independently of any measurement.
 */
#ifndef MEMSCOPE_TRUTH_MODEL_H
#define MEMSCOPE_TRUTH_MODEL_H

/* out[i] = in[i * stride + offset], n threads in warps of 32: mean sectors per load request. */
double model_copy_sectors_per_request(int n, int stride, int offset);
/* Bytes the threads asked for over bytes the sectors carried, in percent. */
double model_copy_load_efficiency(int n, int stride, int offset);
/* Wavefronts one warp-wide shared access needs when lane i reads element i * stride of elem_bytes each. */
int model_shared_wavefronts(int stride, int elem_bytes);

#endif
