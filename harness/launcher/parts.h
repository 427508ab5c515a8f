/*
 * What the injection library left in <dir>.partial once the program has
 * exited 0: each process's part (the program's in the folder itself, any
 * other's in process-<pid>/) is complete, failed, unfinished or absent; the
 * launcher commits the folder only when all of them are complete.
 */
#ifndef MEMSCOPE_LAUNCHER_PARTS_H
#define MEMSCOPE_LAUNCHER_PARTS_H

#include <stddef.h>

#include "../common/error.h"
#include "../results/partial_folder.h"
#include "merge.h"

enum part_state {
    PART_ABSENT,   /* CUDA never started in the process: the library was never called */
    PART_STARTED,  /* recording started, but nothing was written at exit */
    PART_FAILED,   /* the library said why in its error file */
    PART_COMPLETE, /* the completion mark */
};

struct part {
    enum part_state state;
    size_t launches, selected; /* PART_COMPLETE */
    size_t timed_only;         /* of the selected, not replayed: a collective was running (gpu/peers.h) */
    size_t graph;              /* of the launches, those a CUDA graph ran: never selected */
    size_t capturing;          /* of the selected, not replayed: a graph was being captured (cupti/stream_capture.h) */
    int code;                  /* PART_FAILED: an exit code of error.h, and its message */
    char message[1024];
};

void part_read(const char *dir, struct part *p);

/* 0 when every part is complete and the program launched kernels (*p: its launches and selected summed over every
 * process's part); otherwise a code and message that say why, the folder left as it is, or removed when nothing at
 * all is in it. */
int parts_check(const struct results_dir *d, struct part *p, struct error *e);
/* The same for one run's folder (a later run of --repeat, the stall sampling's), which is never removed. */
int parts_check_run(const char *folder, struct part *p, struct error *e);

/* A process that launched no kernel (a compile or data-loading worker that loaded CUDA, torchrun's own process) adds
 * no part to one run's folder: once every run of the program is over (the stall sampling's reads the first run's
 * parts), its files are removed, and its folder where it had one (a folder holding a file not memscope's is kept,
 * whole). The program's own part in the folder goes too where another part launched kernels; otherwise it is the
 * profile. */
void parts_drop_idle(const char *folder);

/* One run's folder, once every run of the program is over, made ready to read: its idle parts dropped, the program's
 * own moved into a folder of its own beside others (merge.h), its parts listed into *parts; a later run's (pairing
 * not NULL) paired with the first run's. */
int parts_open_run(const char *dir, struct part_names *parts, struct part_pairing *pairing, struct error *e);

#endif
