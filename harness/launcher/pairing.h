/*
 * A later run's parts paired with the first run's (issue 51's real programs): the program's own part and each rank's
 * keep their names from run to run, but a worker's (a DataLoader's, a multiprocessing pool's, a compile worker's) is
 * process-<pid>, another pid each run. Such a part is read as the first run's worker whose jobs hold the most of its
 * own, each of the first run's workers taken once a run, so that the later runs' launches are samples of the first
 * run's jobs, and their stall samples and lines land on them. Host-only.
 */
#ifndef MEMSCOPE_LAUNCHER_PAIRING_H
#define MEMSCOPE_LAUNCHER_PAIRING_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/error.h"
#include "../csv/name_index.h"
#include "merge.h"

struct part_pairing {
    struct part_names first;           /* the first run's parts */
    bool taken[MERGE_MAX_PARTS];       /* the first run's parts a part of the run being read has been paired with */
    const struct name_index *jobs;     /* the first run's jobs, keyed with their part (merge_job_key) */
};

/* Once the first run's parts are known. */
void part_pairing_init(struct part_pairing *p, const struct part_names *first, const struct name_index *jobs);
/* Before each later run's parts are read. */
void part_pairing_next_run(struct part_pairing *p);
/* The label the first run's keys give the later run's part in dir (labelled `label` in its own run), into out: a
 * worker's, the first run's worker not yet taken this run whose jobs hold the most of the jobs of dir's launches.csv
 * (the first of equals), or its own where none holds any; any other part's, its own. */
int part_pairing_label(struct part_pairing *p, const char *dir, const char *label, char *out, size_t len,
                       struct error *e);

#endif
