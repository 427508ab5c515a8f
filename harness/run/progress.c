#include <stdio.h>
#include <unistd.h>

#include "../common/host_clock.h"
#include "progress.h"

#define UPDATE_INTERVAL_S 0.2

void progress_init(struct progress *p, int jobs)
{
    *p = (struct progress){.enabled = isatty(STDERR_FILENO) == 1, .jobs = jobs};
}

void progress_job(struct progress *p, int job, const char *variant, const char *size)
{
    p->job = job;
    p->variant = variant;
    snprintf(p->size, sizeof p->size, "%s", size);
}

void progress_phase(struct progress *p, const char *phase)
{
    if (p->enabled)
        fprintf(stderr, "\r\033[K[%d/%d] %s %s: %s", p->job, p->jobs, p->variant, p->size, phase);
}

void progress_samples(struct progress *p, int samples, double ci95_rel)
{
    double t = host_seconds();
    if (!p->enabled || t - p->last_update < UPDATE_INTERVAL_S)
        return;
    p->last_update = t;
    fprintf(stderr, "\r\033[K[%d/%d] %s %s: timed runs, %d samples, spread %.2f%%", p->job, p->jobs, p->variant,
            p->size, samples, ci95_rel * 100.0);
}

void progress_clear(struct progress *p)
{
    if (p->enabled)
        fprintf(stderr, "\r\033[K");
}
