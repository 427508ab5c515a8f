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

#endif
