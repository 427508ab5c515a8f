/*
 * Readable names for a program's kernels, whose demangled names run to hundreds of characters: the kernel without
 * its return type, its parameter list, its namespaces and, where still too long, its deepest template arguments
 * ("vectorized_elementwise_kernel<4, CUDAFunctor_add<…>, array<…> >").
 */
#ifndef MEMSCOPE_PROGRAM_LABELS_H
#define MEMSCOPE_PROGRAM_LABELS_H

#include <stddef.h>

#include "kernels.h"

/* A kernel label's most characters in a table's column of its own (the hot-lines page's column is narrower). */
#define KERNEL_LABEL_MAX 72

/* A job's label: its kernel's, its ordinal and its NVTX path. */
#define JOB_LABEL_LEN 256

/* name cut to max characters (at least 2) where it has more: in its middle where it has no template arguments and max
 * is 14 or more (names that differ at their end: Inductor's kernels and generated files; the last 12 characters
 * kept), else at its end, the last character an ellipsis. name's buffer holds two bytes beyond its terminating null
 * at least (an ellipsis is three). */
void program_label_shorten(char *name, size_t max);

/* kernel shortened to max characters into out (JOB_LABEL_LEN bytes hold any). */
void program_kernel_label(const char *kernel, size_t max, char *out, size_t size);

/* A job (results/job_name.h) of kernel: "LABEL #K (PATH)", "LABEL #K" without an NVTX path, the label of max
 * characters; a name that is not kernel's, shortened at its end to max. */
void program_job_label(const char *job, const char *kernel, size_t max, char *out, size_t size);

/* A kernel of a profile read by kernel (kernels.h) as a page or a comparison names it: its label of max characters,
 * with its NVTX range where the kernels are grouped by range, or its job's label where each launch is its own. */
void program_kernel_name(const struct program_kernels *k, const struct program_kernel *kernel, size_t max, char *out,
                         size_t size);

#endif
