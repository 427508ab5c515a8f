/*
 * launches.csv: a profiled program's kernel launches, one row each, as
 * memscope-profile's injection library found them (schema.h: LAUNCHES_CSV).
 */
#ifndef MEMSCOPE_LAUNCHES_CSV_H
#define MEMSCOPE_LAUNCHES_CSV_H

#include <stdint.h>

#include "../csv/writer.h"

struct launch_row {
    long ordinal, kernel_ordinal;
    const char *kernel, *mangled, *nvtx_path;
    int grid[3], block[3];
    int dynamic_smem_bytes, static_smem_bytes, registers_per_thread;
    uint64_t duration_ns;
    int selected;
    const char *job; /* job_name.h; NULL until the launch is placed in its job */
    int run;         /* 1 to repeat; 0 with job NULL */
};

int launches_csv_create(struct csv *c, const char *dir, struct error *e);
void launches_csv_row(struct csv *c, const struct launch_row *r);

#endif
