/*
 * The injection library's bookkeeping, with no CUPTI call in it (tests feed it
 * records of their own): each GPU record is placed on the host thread and time
 * of the CUDA call that asked for it (the two share a correlation id), and so
 * inside the NVTX ranges open on that thread at that time; then the kernel
 * launches are numbered and selected.
 */
#ifndef MEMSCOPE_INJECT_LAUNCHES_H
#define MEMSCOPE_INJECT_LAUNCHES_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "../../cupti/activity.h"
#include "../common/error.h"

#define KEPT_RANGE_NAME_LEN 256

/* An NVTX range as the hook kept it: closed, or still open when the program ended (end_ns 0). */
struct kept_range {
    char name[KEPT_RANGE_NAME_LEN];
    uint32_t thread; /* the system's thread id, as CUPTI names a call's thread */
    int depth;       /* in its domain's stack on that thread, 0 outermost */
    uint64_t start_ns, end_ns;
};

/* Where each GPU record was asked for. */
struct placement {
    uint32_t *thread; /* per op: the thread of its call; 0 where the call was not recorded */
    size_t *path;     /* per op: its NVTX path, an index in paths */
    char **paths;     /* each distinct path once, "outer/inner/..."; paths[0] is "": no range, or no call */
    size_t n_paths;
    size_t unplaced; /* ops whose call was not recorded (CUPTI dropped it) */
};

int place_ops(const struct prof_gpu_op *ops, size_t n_ops, const struct prof_api_call *calls, size_t n_calls,
              const struct kept_range *ranges, size_t n_ranges, struct placement *out, struct error *e);
void placement_free(struct placement *p);

/* The selection as Nsight Compute's users know it: of the launches whose demangled name matches kernel (NULL:
 * any) and whose NVTX path contains nvtx_include (NULL or "": any), the first skip are passed over, then count
 * are taken (negative: all the rest), at most per_kernel of each kernel (0: no such bound; 1 profiles
 * every distinct kernel once). */
struct selection {
    const regex_t *kernel;
    const char *nvtx_include;
    long skip, count;
    long per_kernel;
};

/* Launches seen so far that the name and NVTX range matched, and of those taken, in all and per kernel (indexed
 * as the caller numbers its kernels). */
struct selection_count {
    long matched, taken;
    long *taken_of_kernel;
    size_t n_kernels;
};

int selection_name_matches(const struct selection *s, const char *kernel);
/* Whether s takes the next launch, of the kernel numbered kernel, its name's match said, at path; counts it. The
 * same rule selects as the program runs (the launches metrics are collected for) and at its exit (launches.csv's
 * selected). -1 when the count per kernel finds no memory. */
int selection_takes(const struct selection *s, struct selection_count *count, size_t kernel, int name_matches,
                    const char *path);
void selection_count_free(struct selection_count *count);

/* Kernels numbered as the program first launches them, by demangled name: the numbering the count per kernel
 * needs as the program runs. */
struct kernel_numbers {
    char **names;
    size_t n;
};
/* The kernel's number, a new one for a name not seen yet; -1 when out of memory. */
int kernel_number(struct kernel_numbers *k, const char *name, size_t *number);
void kernel_numbers_free(struct kernel_numbers *k);

struct launch {
    size_t op;           /* its record in ops */
    size_t kernel;       /* its demangled name, an index in kernels */
    long ordinal;        /* in launch order, from 0 */
    long kernel_ordinal; /* among the launches of the same kernel at the same NVTX path, from 0 */
    int selected;
};

struct launches {
    struct launch *rows; /* in launch order: by correlation id (the order of the calls), then start */
    size_t n, n_selected;
    char **kernels; /* each distinct kernel's demangled name once */
    size_t n_kernels;
};

int launches_build(const struct prof_gpu_op *ops, size_t n_ops, const struct placement *p, const struct selection *s,
                   struct launches *out, struct error *e);
void launches_free(struct launches *l);

#endif
