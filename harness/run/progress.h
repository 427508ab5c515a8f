/* One progress line on stderr, rewritten in place, only when stderr is a terminal. */
#ifndef MEMSCOPE_PROGRESS_H
#define MEMSCOPE_PROGRESS_H

#include <stdbool.h>

struct progress {
    bool enabled;
    int job, jobs;
    const char *variant;
    char size[48]; /* "W=4096", "8192x3072x1024" */
    double last_update;
};

void progress_init(struct progress *p, int jobs);
void progress_job(struct progress *p, int job, const char *variant, const char *size);
void progress_phase(struct progress *p, const char *phase);
void progress_samples(struct progress *p, int samples, double ci95_rel);
void progress_clear(struct progress *p);

#endif
