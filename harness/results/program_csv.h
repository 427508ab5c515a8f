/*
 * The files memscope-profile writes of a program's profile as a whole, once every run is over: kernels.csv (the
 * profile read by kernel: harness/program/kernels.h) and collectives.csv (each collective of a multi-process
 * program split into its ranks' wait and transfer: harness/program/collectives.h). Columns: schema.h. The readers
 * build both from the profile's other files (a profile written before issue 48 has neither), so these are rows for
 * tools, written here and checked by the folder reader like every file of the folder.
 */
#ifndef MEMSCOPE_PROGRAM_CSV_H
#define MEMSCOPE_PROGRAM_CSV_H

#include <stdint.h>

#include "../csv/writer.h"

struct kernel_row {
    const char *kernel, *nvtx_range;
    uint64_t launches;
    double share_pct, total_ms, mean_ms, median_ms, min_ms, max_ms, stdev_ms;
    int processes;
    const char *profiled_job, *status;
    uint64_t autotuning_launches; /* an autotuner's timing runs of the kernel, apart from launches */
    double autotuning_ms;
};

struct collective_row {
    long collective;
    const char *kernel, *part;
    double start_ms, duration_ms, wait_ms, transfer_ms;
    const char *last_arrival;
    long replays_before;
};

int kernels_csv_create(struct csv *c, const char *dir, struct error *e);
void kernels_csv_row(struct csv *c, const struct kernel_row *r);
int collectives_csv_create(struct csv *c, const char *dir, struct error *e);
void collectives_csv_row(struct csv *c, const struct collective_row *r);

#endif
