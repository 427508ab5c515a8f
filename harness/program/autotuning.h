/*
 * The launches an autotuner made to time its candidates, told from a program's own. Triton's do_bench (behind
 * @triton.autotune) and Inductor's benchmarker (behind torch.compile, where its cache holds no choice yet) time each
 * candidate kernel after emptying the L2: before every timed run they zero an int buffer larger than the L2, which
 * is PyTorch's fill kernel for ints (at::native::FillFunctor<int>). A process's launches then run flush, K, flush, K
 * ... with one kernel K for five pairs or more (both time five runs to estimate, then many more), after an untimed
 * warm-up: runs of K alone (do_bench) or of the flush alone (Inductor's memory warm-up). On a real training script
 * these made 35,240 of a rank's 38,282 launches and 77 % of its kernels' time (docs/profile.md); counted as the
 * program's they ranked the flush second of its kernels and multiplied its Triton kernels' launches by 27.
 *
 * A program of its own that zeroes an int tensor before each launch of one kernel, five times in a row with no other
 * launch between, reads the same way: the pattern is the autotuners' whole signature, not their intent. So does a
 * launch of the program's own between do_bench's five estimating runs and its timed ones (its warm-up runs are the
 * same kernel): a program that calls an autotuned kernel right after one autotuning of it and right before another.
 */
#ifndef MEMSCOPE_PROGRAM_AUTOTUNING_H
#define MEMSCOPE_PROGRAM_AUTOTUNING_H

#include <stdbool.h>
#include <stddef.h>

/* The fewest flush-and-candidate pairs in a row that are an autotuner's timing: both time five to estimate. */
#define AUTOTUNING_LEAST_PAIRS 5

/* Whether a demangled kernel name is the autotuners' L2 flush, PyTorch's int fill. */
bool autotuning_is_flush(const char *kernel);

/* kernels[0..n): one process's launches in the order it made them, by demangled name. Sets autotuning[i] for each
 * launch the autotuner made (the pairs; the flushes and the one untimed candidate run straight before them; after
 * five pairs, an estimate, the untimed and timed runs of do_bench that follow) and clears it for the rest. -1 out of
 * memory. */
int autotuning_mark(const char *const *kernels, size_t n, bool *autotuning);

#endif
