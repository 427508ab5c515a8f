/*
 * launches.csv: a profiled program's kernel launches, one row each, as
 * memscope-profile's injection library found them (schema.h: LAUNCHES_CSV).
 */
#ifndef MEMSCOPE_LAUNCHES_CSV_H
#define MEMSCOPE_LAUNCHES_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../csv/writer.h"

struct launch_row {
    long ordinal, kernel_ordinal;
    const char *kernel, *mangled, *nvtx_path;
    int grid[3], block[3];
    int dynamic_smem_bytes, static_smem_bytes, registers_per_thread;
    uint64_t duration_ns;
    int selected;
    const char *job; /* the launch's key in the profile's other files (job_name.h) */
    int run;         /* which run of the program, from 1 (--repeat) */
    const char *not_replayed; /* a selected launch timed only, never replayed: why (NOT_REPLAYED_*); "" otherwise */
    uint64_t start_ns;        /* on CUPTI's clock (environment.csv's clock_offset_ns makes it the host's) */
    uint32_t graph;           /* the CUDA graph that launched it (CUPTI's id), 0 for a launch of its own */
};

/* not_replayed's values. A collective is kept back for what it is: NCCL's kernels, and those --no-replay names (it
 * waits in itself for its peers). Any other kernel is kept back for when it ran: while a collective of the program
 * ran on this host, which its replay would have undone (gpu/peers.h); or while the program captured a CUDA graph,
 * which the replay's calls would have ended with an error (cupti/stream_capture.h). */
#define NOT_REPLAYED_NCCL "NCCL kernel"
#define NOT_REPLAYED_OPTION "--no-replay"
#define NOT_REPLAYED_COLLECTIVE_RUNNING "a collective running"
#define NOT_REPLAYED_CAPTURING "a graph being captured"

/* Whether a not_replayed value says the launch is a collective's; whether it says the launch was kept back for when
 * it ran (either reason). */
bool not_replayed_is_collective(const char *why);
bool not_replayed_is_kept_back(const char *why);

int launches_csv_create(struct csv *c, const char *dir, struct error *e);
void launches_csv_row(struct csv *c, const struct launch_row *r);

/* A launch a run selected, as a later run of the same program knows it again (its kernel's mangled symbol, its grid
 * and block), and its duration in milliseconds; one whose duration nothing measured (0: CUPTI could not replay it)
 * counts 1 ns. */
struct selected_launch {
    char *mangled;
    int grid[3], block[3];
    double ms;
};

struct selected_launches {
    struct selected_launch *at;
    size_t n;
};

/* Appends dir's launches.csv's selected launches to *s, in launch order. A collective kept back from replay is not
 * among them: the stall sampling's run keeps it back too. */
int launches_csv_selected(const char *dir, struct selected_launches *s, struct error *e);
void selected_launches_free(struct selected_launches *s);

#endif
