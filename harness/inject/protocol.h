/*
 * What memscope-profile and its injection library say to each other: the
 * environment variables the launcher sets for the program it starts, and the
 * files the library leaves in the results folder beside the results.
 */
#ifndef MEMSCOPE_INJECT_PROTOCOL_H
#define MEMSCOPE_INJECT_PROTOCOL_H

/* Beside memscope-profile's own binary: CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH name it. */
#define INJECT_LIBRARY "libmemscope-inject.so"

#define INJECT_ENV_DIR "MEMSCOPE_PROFILE_DIR"     /* the results folder, <dir>.partial, as an absolute path */
#define INJECT_ENV_ROOT_PID "MEMSCOPE_PROFILE_PID" /* the pid of the program the launcher started */
#define INJECT_ENV_KERNEL "MEMSCOPE_PROFILE_KERNEL"             /* --kernel: an extended regular expression */
#define INJECT_ENV_NVTX_INCLUDE "MEMSCOPE_PROFILE_NVTX_INCLUDE" /* --nvtx-include */
#define INJECT_ENV_LAUNCH_SKIP "MEMSCOPE_PROFILE_LAUNCH_SKIP"   /* --launch-skip */
#define INJECT_ENV_LAUNCH_COUNT "MEMSCOPE_PROFILE_LAUNCH_COUNT" /* --launch-count; unset: every launch */
/* --launch-count-per-kernel; unset: no bound per kernel */
#define INJECT_ENV_LAUNCH_COUNT_PER_KERNEL "MEMSCOPE_PROFILE_LAUNCH_COUNT_PER_KERNEL"
#define INJECT_ENV_NO_REPLAY "MEMSCOPE_PROFILE_NO_REPLAY" /* --no-replay: an extended regular expression */
#define INJECT_ENV_RUN "MEMSCOPE_PROFILE_RUN"       /* which run of the program (--repeat), from 1; unset: 1 */
#define INJECT_ENV_REPEAT "MEMSCOPE_PROFILE_REPEAT" /* --repeat: how many runs there are; unset: 1 */
#define INJECT_ENV_METRIC_GROUPS "MEMSCOPE_PROFILE_METRIC_GROUPS" /* --metric-groups; unset or "none": no metrics */
#define INJECT_ENV_WAIT_GPU "MEMSCOPE_PROFILE_WAIT_GPU" /* --wait-gpu: seconds; unset: INJECT_DEFAULT_WAIT_GPU_S */
#define INJECT_DEFAULT_WAIT_GPU_S 600
/* The stall sampling's run (METRIC_GROUPS "stalls"): the first run's folder, whose launches.csv gives each
 * selected launch's duration, from which its sampling period is chosen (a file: a program may select more
 * launches than an environment variable holds). */
#define INJECT_ENV_FIRST_RUN "MEMSCOPE_PROFILE_FIRST_RUN"
/* A test hook: names a file into which the library writes, at exit, the NVTX ranges it kept ("thread depth
 * open|closed name" a line), so that tests see NVTX reach it where no CUDA can start. */
#define INJECT_ENV_SELFTEST "MEMSCOPE_INJECT_SELFTEST"

/* In the run's folder, shared by the program's processes while it runs (gpu/peers.h: which collectives run, so that
 * no replay runs beside one); the launcher removes it once the program has exited. */
#define INJECT_PEERS_FILE ".memscope-peers"
/* Written into a process's part when recording starts in it (CUDA started). */
#define INJECT_STARTED_MARK ".memscope-profile-started"
/* Written last into a process's part: "launches N selected M timed_only K graph G capturing C" (K of the M selected
 * were not replayed: a collective was running, gpu/peers.h; G of the N a CUDA graph ran; C of the M were not replayed:
 * a graph was being captured, cupti/stream_capture.h). Its absence means the part is incomplete. */
#define INJECT_COMPLETE_MARK ".memscope-profile-complete"
/* Written instead when the library could not record or write: "CODE MESSAGE", CODE an exit code of error.h. */
#define INJECT_ERROR_FILE ".memscope-profile-error"
/* The part of a process other than the one the launcher started (a child it ran), inside the folder: named by
 * its rank where its launcher gave one (inject/rank.h), else by its pid. */
#define INJECT_CHILD_PART "process-%ld"
#define INJECT_RANK_PART "rank-%ld"
/* Where the launcher moves the program's own part, when other processes left parts too and none of them took its
 * rank's name (rank-R): the folder's own files are then the parts merged (launcher/merge.h). */
#define INJECT_PROGRAM_PART "program"
/* The source run's capture in each part (results/source_capture.h): memscope-decode --lines reads it offline. */
#define INJECT_SOURCE_CAPTURE "program.source"

#endif
