/*
 * A program profile's key (memscope-profile): a job is one kernel launch, named by its demangled kernel, the NVTX
 * path open at the launch and its ordinal among that kernel's launches at that path: "PATH/KERNEL #K", or
 * "KERNEL #K" where no NVTX range was open. It stands in the variant column of every file of the profile, with
 * precision PROGRAM_PRECISION and width 0, so that the suite's readers key a profile as they key a run.
 */
#ifndef MEMSCOPE_JOB_NAME_H
#define MEMSCOPE_JOB_NAME_H

#include <stddef.h>

#define PROGRAM_PRECISION "program"
/* environment.csv's kind of a profile, and its jobs' statuses in summary.csv: with hardware metrics, or timed only. */
#define PROGRAM_KIND "program"
#define PROGRAM_STATUS_PROFILED "profiled"
#define PROGRAM_STATUS_TIMED "timed"
/* A job selected and timed only, kept back from replay: a collective (launches.csv's not_replayed says why). */
#define PROGRAM_STATUS_NOT_REPLAYED "not replayed"
/* A job selected and timed only because a collective of the program was running on this host at its launch, which a
 * replay would have undone (launches.csv's not_replayed "a collective running"; gpu/peers.h). */
#define PROGRAM_STATUS_KEPT_BACK "kept back"
/* A job selected and timed only because the program was capturing a CUDA graph at its launch, which the calls a
 * replay makes would have ended with an error (launches.csv's not_replayed "a graph being captured";
 * cupti/stream_capture.h). */
#define PROGRAM_STATUS_KEPT_BACK_IN_CAPTURE "kept back in a capture"
/* A job a CUDA graph launched: timed only, never selected (a graph's kernels are not launched one by one, and a launch
 * captured into a graph runs nothing then; launches.csv's graph). */
#define PROGRAM_STATUS_IN_GRAPH "in a graph"
/* The longest job name a reader keeps (a demangled template kernel can be long): memscope-compare refuses longer. */
#define JOB_NAME_LEN 1024

/* The job's name into out; -1 when it does not fit in size. */
int job_name_format(char *out, size_t size, const char *nvtx_path, const char *kernel, long ordinal);

/* A job name taken apart, given the kernel it names (summary.csv's metrics_kernel): the NVTX path (path_len 0 for
 * none) and the ordinal. */
struct job_parts {
    const char *path;
    size_t path_len;
    long ordinal;
};
/* -1 when job is not a name of kernel's. */
int job_name_split(const char *job, const char *kernel, struct job_parts *p);

/* A multi-process program's profile (issue 41): the folder's files merge the parts of every process that used CUDA,
 * and a job's key begins with its part: "[rank R]/" (the rank its launcher gave it), "[program]/" (the process
 * memscope-profile started, without a rank) or "[process PID]/" (another, without a rank), then the job's name as
 * its process wrote it: "[rank 1]/step 2/ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgs4K) #0". A
 * reader that knows nothing of parts sees the part as the outermost NVTX range, and memscope-compare pairs the same
 * job of the same rank. A profile of one process keeps its keys without a part. */
#define JOB_PART_OPEN "["
#define JOB_PART_CLOSE "]/"

/* Whether a kernel (demangled) is one of NCCL's, whose launches wait inside themselves for their peers on other GPUs:
 * their names all begin "ncclKernel" (NCCL up to 2.18) or "ncclDevKernel" (2.19 on). */
int job_kernel_is_nccl(const char *kernel);

/* "[label]/job" into out; -1 when it does not fit. */
int job_name_with_part(char *out, size_t size, const char *label, const char *job);
/* The part's label ("rank 1") and the job within it; 0 and *label_len 0 when job names no part. */
void job_name_part(const char *job, const char **label, size_t *label_len, const char **rest);

#endif
