/*
 * A multi-process program's collectives, rank by rank (issue 48). A collective kernel (NCCL's, or one a part kept
 * back from replay, as --no-replay named it: every launch of it, though only the selected say why) starts on each
 * rank when that rank reaches it and ends, on all, once the last has arrived and the data has moved: its duration
 * on a rank is its wait for the last arrival plus the transfer. Each part's collectives (its launches.csv of the
 * first run, in call order) are matched by their place in that order, all ranks taking part in each (one
 * communicator, as DDP's); the n-th of every part must be one kernel, else matching stops there and says where.
 * Starts are set on the host's clock (each part's clock_offset_ns) so that parts compare; the rank whose start is
 * latest arrived last: it is the straggler, and the others' waits are its doing. A rank whose collective ended
 * before the last arrival did not wait for it (a broadcast's root can finish once its data is in the peers' NCCL
 * buffers): its whole duration is transfer. Where the straggler had launches replayed by memscope since its
 * collective before, the wait is memscope's (replays_before).
 *
 * A rank's collective waits on its GPU's SMs while the rank's other kernels run beside it (DDP overlaps the gradients'
 * all-reduce with the backward pass), and slows them, on either rank (docs/profile.md measures a cuBLAS GEMM's
 * launches beside a collective and alone). The rank that waits longer, the one that did not straggle, runs more of
 * its launches beside one. Each launch of the first run is marked where it overlapped one of
 * its part's collectives (beside_row), so that ranks are compared on their launches alone.
 */
#ifndef MEMSCOPE_PROGRAM_COLLECTIVES_H
#define MEMSCOPE_PROGRAM_COLLECTIVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../results/folder_reader.h"

#define COLLECTIVE_PART_LABEL_LEN 64

/* One rank's side of one collective. */
struct collective_arrival {
    int64_t start_ns; /* on the host's clock */
    uint64_t duration_ns, wait_ns, transfer_ns;
    long replays_before; /* launches of this part memscope replayed since its collective before (0 in a run that
                            replayed none: metric groups none or stalls) */
};

struct program_collectives {
    char (*part)[COLLECTIVE_PART_LABEL_LEN]; /* the parts that ran collectives, as the profile labels them ("rank 1") */
    size_t n_parts;
    char **kernel;                        /* per collective: its kernel (demangled) */
    struct collective_arrival *arrival;   /* per collective, per part: arrival[c * n_parts + p] */
    int *last;                            /* per collective: the part that arrived last */
    size_t n;                             /* collectives matched */
    int64_t first_start_ns;               /* the earliest start of any */
    char unmatched[512];                  /* why matching stopped before a part's last collective; "" if it did not */
    bool *beside_row;                     /* per summary row: its launch (the first run's) overlapped, on its part's
                                             GPU, one of the part's collectives; none where no part has start times */
    char not_split[256];                  /* why nothing could be split ("": it was): too few parts, no start times */
};

/* The collectives of r, a program's profile of several parts (its environment.csv's part_<dir> entries). A
 * profile where nothing can be split (one part, or a profile written before launches.csv had start_ns) gives n 0
 * and says why in not_split. On failure nothing is left to free. */
int program_collectives_build(const struct results_folder *r, struct program_collectives *c, struct error *e);
void program_collectives_free(struct program_collectives *c);

static inline const struct collective_arrival *collective_at(const struct program_collectives *c, size_t collective,
                                                             size_t part)
{
    return &c->arrival[collective * c->n_parts + part];
}

#endif
