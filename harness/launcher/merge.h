/*
 * A multi-process program's profile made one (issue 41): every process that used CUDA left a part, the program's
 * own in the folder itself and each other's in rank-R/ (its launcher gave it a rank) or process-<pid>/ (inject/
 * protocol.h). Where there are other parts, the program's own is moved into one of its own (rank-R, or program/
 * where it had no rank or another took the name), so that the folder's files can be the parts merged: each job's
 * key gains its part (results/job_name.h), and environment.csv describes every part. Host-only.
 */
#ifndef MEMSCOPE_LAUNCHER_MERGE_H
#define MEMSCOPE_LAUNCHER_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/error.h"
#include "../common/paths.h"
#include "../csv/name_index.h"

#define MERGE_MAX_PARTS 1024
#define MERGE_PART_NAME_LEN 64

/* A part: its folder's name inside the run's folder ("" the folder itself) and its label in job keys ("rank 1",
 * "program", "process 42"; "" for the one part of a single-process profile). */
struct part_name {
    char dir[MERGE_PART_NAME_LEN], label[MERGE_PART_NAME_LEN];
};

struct part_names {
    struct part_name at[MERGE_MAX_PARTS];
    size_t n;
};

/* A part's job's key in the folder's files: with the part's label where the profile has several (job_name.h); the
 * job as the process named it where it has one part, or where the key would be too long. */
const char *merge_job_key(const char *label, const char *job, char *out, size_t size);
/* The parts of the processes other than the program in folder (one run's), ranks in order, then the rest by name. */
int merge_list_children(const char *folder, struct part_names *p, struct error *e);
/* The parts of a run: its children, or the folder itself alone (label "") where it has none. */
int merge_list_parts(const char *folder, struct part_names *p, struct error *e);
/* Where folder holds children, moves the program's own part (its files, when it has any) into rank-R or program/. */
int merge_move_program_part(const char *folder, struct error *e);
/* The folder's environment.csv: the first part's (a rank's, else the program's own), with the counts summed over the
 * parts and command_line the command the user ran, then each part's pid, rank, GPUs, launches and command line under
 * part_<dir>_<key> (parts: how many). */
int merge_environment(const char *folder, const struct part_names *p, const char *command_line, struct error *e);
/* A profile of one process: its environment.csv's command_line made the command the user ran (the process's own
 * may be another: an interpreter's, an exec'd wrapper's). */
int merge_name_command(const char *folder, const char *command_line, struct error *e);

/* A later run's parts paired with the first run's: the program's own part and each rank's keep their names from run
 * to run, but a worker's (a DataLoader's, a multiprocessing pool's, a compile worker's) is process-<pid>, another pid
 * each run. Such a part is read as the first run's worker whose jobs hold the most of its own, each of the first
 * run's workers taken once a run, so that the later runs' launches are samples of the first run's jobs, and their
 * stall samples and lines land on them. */
struct part_pairing {
    char first_dir[PATH_LEN];      /* the first run's folder */
    struct part_names first;       /* the first run's parts */
    const struct name_index *jobs; /* the first run's jobs, keyed with their part (merge_job_key) */
    int paired[MERGE_MAX_PARTS];   /* per part of the later run being read: its first-run part, or -1 */
};

/* Once the first run's parts are known. */
void part_pairing_init(struct part_pairing *p, const char *first_dir, const struct part_names *first,
                       const struct name_index *jobs);
/* Pairs the parts of a later run (its folder dir) with the first run's: the program's own with the program's own
 * ("", program/ or, where it had a rank, rank-R: whichever each run has), a rank's with that rank's, each worker with
 * the first run's worker whose jobs hold the most of its launches.csv's jobs, the pair sharing the most first. */
int part_pairing_run(struct part_pairing *p, const char *dir, const struct part_names *later, struct error *e);
/* The label the first run's keys give the later run's part w: its pair's, or its own where it has none. */
const char *part_pairing_label(const struct part_pairing *p, const struct part_names *later, size_t w);

#endif
