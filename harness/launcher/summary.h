/*
 * A program profile's summary.csv and samples.csv, made from its parts once
 * every run of the program is over: each launch of each run (launches.csv in
 * the folder, and in run-<i>/ for the later runs) is a sample of its job; the
 * launches profiled in the first run give their jobs' metrics (metrics.csv),
 * from which the summary's metric columns and diagnosis are made as the
 * suite's run makes them (profile/profile_summary.h). Host-only.
 */
#ifndef MEMSCOPE_LAUNCHER_SUMMARY_H
#define MEMSCOPE_LAUNCHER_SUMMARY_H

#include <stddef.h>

#include "../common/error.h"

/* The folder of run number run (from 1) of a profile being written into folder. */
void profile_run_folder(char *dir, size_t len, const char *folder, int run);

/* *unmatched: launches of later runs that the first run did not make (no job of theirs; left out). */
int profile_summary_write(const char *folder, int runs, size_t *unmatched, struct error *e);

#endif
