/*
 * A program profile's summary.csv and samples.csv, made from its parts once
 * every run of the program is over: each launch of each run (launches.csv in
 * the folder, and in run-<i>/ for the later runs) is a sample of its job; the
 * launches profiled in the first run give their jobs' metrics (metrics.csv),
 * from which the summary's metric columns and diagnosis are made as the
 * suite's run makes them (profile/profile_summary.h); the stall sampling's
 * run (PROFILE_STALL_RUN/stalls.csv) gives their stall samples, copied into the
 * folder's stalls.csv, and each job's top reason; the source group's run (source_run.h) gives their lines.csv
 * and instructions.csv, whose lines the findings name. Host-only.
 */
#ifndef MEMSCOPE_LAUNCHER_SUMMARY_H
#define MEMSCOPE_LAUNCHER_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/error.h"
#include "../results/environment_csv.h"

/* The folder of run number run (from 1) of a profile being written into folder. */
void profile_run_folder(char *dir, size_t len, const char *folder, int run);

/* The stall sampling's run of the program, in its own folder inside the profile's. */
#define PROFILE_STALL_RUN "stall-sampling"

/* The runs of the program: timed (the first, with metrics, and --repeat's), then the stall sampling's and the
 * source group's where they ran. */
struct profile_runs {
    int timed;
    bool stalls, source;
};

/* What the later runs made that the first run did not (no job of theirs; left out of the folder's files): launches
 * of the timed runs, rows of stall samples, rows of lines and instructions. */
struct profile_unmatched {
    size_t launches, stall_rows, source_rows;
    size_t uncounted;            /* selected launches the source run could not count: no lines of theirs */
    char first_uncounted[512];   /* why the first was not */
};

/* roofs: the GPU's measured ceilings (roofs.h; empty without them), for each tensor kernel's share of its type's
 * roof and its diagnosis; command_line: the command the user ran, which names the profile (merge.h). */
int profile_summary_write(const char *folder, const struct profile_runs *runs, const struct environment *roofs,
                          const char *command_line, struct profile_unmatched *unmatched, struct error *e);

#endif
