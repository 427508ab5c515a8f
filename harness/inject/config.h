/*
 * What memscope-profile asked of the injection library, from the environment
 * it gave the program (protocol.h): where this process's part of the results
 * goes, and which launches are selected.
 */
#ifndef MEMSCOPE_INJECT_CONFIG_H
#define MEMSCOPE_INJECT_CONFIG_H

#include <regex.h>

#include "../common/error.h"
#include "../common/paths.h"
#include "../csv/name_index.h"
#include "../profile/metric_set.h"
#include "../results/launches_csv.h"
#include "launches.h"
#include "rank.h"

/* The first run's selected launches, by launch shape (kernel, grid and block) and by kernel: each launch of the stall
 * sampling's run takes the duration of one. */
struct first_run {
    struct selected_launches launches; /* in launch order, of the parts read_first_run reads */
    struct name_index by_shape;        /* a shape's key -> its number */
    struct name_index by_kernel;       /* a kernel's symbol -> its first launch */
    size_t shapes;
    size_t *next;                      /* per launch: the next of its shape, SIZE_MAX after its last */
    char **key;                        /* per shape: its key, which by_shape points into */
    size_t *last, *cursor;             /* per shape: its last launch, and its first not yet taken */
};

struct inject_config {
    char folder[PATH_LEN];         /* the results folder (<dir>.partial) */
    char part[PATH_IN_FOLDER_LEN]; /* this process's part: the folder, or process-<pid>/ inside it */
    int child;                     /* not the process the launcher started */
    struct process_rank rank;      /* as its launcher said it (rank.h) */
    const char *kernel_pattern, *nvtx_include, *no_replay_pattern; /* as given; NULL where not */
    regex_t kernel, no_replay;
    const regex_t *user_collectives; /* --no-replay's expression compiled, or NULL */
    struct selection selection;
    const char *metric_groups;  /* as given; "none" where not */
    struct metric_set metrics;  /* for the selected launches; none when the launcher asked for none */
    int run, repeat;            /* which run of the program, from 1, of how many */
    long wait_gpu_s;            /* how long to wait for the GPU's turn (harness/gpu/gpu_lock.h) */
    struct first_run first_run; /* the stall sampling's run: the first run's selected launches whose durations set
                                 * its sampling periods (first_run_ms) */
};

/* 0 and *c filled; EXIT_USAGE when no launcher started the program (no folder named); another code, with the
 * message, for a value the launcher should have refused. */
int inject_config_read(struct inject_config *c, struct error *e);
/* Creates a child's part inside the folder (the launcher created the folder itself), rank-R, or process-<pid> where
 * another process took that name, and marks the part started. */
int inject_config_start_part(struct inject_config *c, struct error *e);
void inject_config_free(struct inject_config *c);

/* The stall sampling's run: the first run's duration (ms) of a launch this run selected, that of the first launch of
 * the same kernel, grid and block the first run selected and no launch of this run has taken, in launch order, which
 * it takes; else that of the kernel's first selected launch, taking none (a first run whose compile cache was cold
 * selected an autotuner's candidate, of another grid and block); -1 where the first run selected no launch of the
 * kernel (the program took another path). */
double first_run_ms(struct first_run *f, const char *mangled, const unsigned grid[3], const unsigned block[3]);
void first_run_free(struct first_run *f);

#endif
