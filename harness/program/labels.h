/*
 * Readable names for a program's kernels, whose demangled names run to hundreds of characters: the kernel without
 * its return type, its parameter list, its namespaces and, where still too long, its deepest template arguments
 * ("vectorized_elementwise_kernel<4, CUDAFunctor_add<…>, array<…> >").
 */
#ifndef MEMSCOPE_REPORT_JOB_LABEL_H
#define MEMSCOPE_REPORT_JOB_LABEL_H

#include <stddef.h>

/* A kernel label's most characters: a table's column. */
#define REPORT_KERNEL_LABEL_MAX 72

/* A job's label: its kernel's, its ordinal and its NVTX path. */
#define REPORT_JOB_LABEL_LEN 256

/* kernel shortened into out (REPORT_JOB_LABEL_LEN bytes hold any). */
void report_kernel_label(const char *kernel, char *out, size_t size);

/* A job (results/job_name.h) of kernel: "LABEL #K (PATH)", "LABEL #K" without an NVTX path; a name that is not
 * kernel's, shortened at its end. */
void report_job_label(const char *job, const char *kernel, char *out, size_t size);

#endif
