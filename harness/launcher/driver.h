/*
 * Whether this machine has a GPU the program could use, asked of the NVIDIA driver only once a program has
 * failed without CUDA ever starting in it: a program that starts CUDA proves the GPU, so a run that works pays
 * nothing for the question, and one that cannot work is told why in those words (exit 3, as memscope says it).
 */
#ifndef MEMSCOPE_LAUNCHER_DRIVER_H
#define MEMSCOPE_LAUNCHER_DRIVER_H

#include <stdbool.h>
#include <stddef.h>

/* True, with the reason in why ("no NVIDIA driver on this machine (...)", "the NVIDIA driver finds no usable
 * GPU: ..."), when the driver, loaded with dlopen, is absent or sees no device under this environment. */
bool driver_finds_no_gpu(char *why, size_t len);

#endif
