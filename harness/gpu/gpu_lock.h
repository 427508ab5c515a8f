/*
 * Two memscope processes on one GPU take turns. Timings taken while another
 * run's kernels share the GPU are wrong, and the GPU's profiler (range
 * profiler, PC sampler) serves one process at a time: CUPTI answers the second
 * with CUPTI_ERROR_HARDWARE_BUSY or, for PC sampling, CUPTI_ERROR_UNKNOWN, and
 * can break the first run's sampling too. So a run holds the GPU's lock, a file
 * named by the GPU's UUID, from before its first kernel to its end; a second
 * run waits for it, saying so, up to a bounded time, then refuses with
 * EXIT_BUSY. The lock is an flock(2): the kernel releases it when its holder
 * exits, however it exits, so no stale lock outlives a crash.
 */
#ifndef MEMSCOPE_GPU_LOCK_H
#define MEMSCOPE_GPU_LOCK_H

#include <stdio.h>

#include "../common/error.h"

/* A GPU's key, its UUID as nvidia-smi writes it (GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx), from its 16 bytes. */
void gpu_lock_key(const unsigned char uuid[16], char *key, size_t len);

/* Where the lock files live: $MEMSCOPE_LOCK_DIR, else /tmp (shared by every user of the machine). */
const char *gpu_lock_folder(void);

/* Takes the lock of the GPU named key (its UUID) in folder, waiting up to wait_s seconds (0: not at all) while
 * another process holds it, and announcing the wait on log. The holder's pid and command line go into the file,
 * so that a waiting run can name it. Sets *waited_s to the time spent waiting. EXIT_BUSY when the wait runs out,
 * EXIT_OUTPUT when the lock file cannot be opened. A process that holds the lock already has it: 0 at once. Each GPU
 * has its own lock: a process that uses two GPUs holds two (at most 16). */
int gpu_lock_take(const char *folder, const char *key, const char *command, double wait_s, FILE *log,
                  double *waited_s, struct error *e);

/* The same, shared: the processes of one multi-process program (the ranks of a torchrun or MPI job) that use one
 * GPU hold its lock together, as one run, while a memscope run, or a single-process profile, holding it exclusively
 * waits for them all, and they for it. A process holds the lock of every GPU it uses, each taken once. */
int gpu_lock_take_shared(const char *folder, const char *key, const char *command, double wait_s, FILE *log,
                         double *waited_s, struct error *e);

/* Processes that share a GPU's lock take turns for each selected launch's replay (the GPU's profiler serves one
 * process at a time): a second lock file per GPU, held only from the launch's entry to its return, so that a rank
 * never waits for another rank's exit (which may wait in a collective for this one). *fd: the turn, for
 * gpu_replay_turn_give; EXIT_BUSY after wait_s seconds. */
int gpu_replay_turn_take(const char *folder, const char *key, double wait_s, int *fd, struct error *e);
void gpu_replay_turn_give(int fd);

/* Gives every lock this process holds back (also done by the kernel at exit). */
void gpu_lock_release(void);

#endif
