/*
 * The timeline page: where a traced run's wall time went (memscope --trace writes timeline.csv, its NVTX ranges).
 * One bar per variant, its jobs at every width summed, in segments by phase (setup, the check, warm-up and timed
 * runs); one bar for the run's own phases (the metric passes, source counters, stall sampling and ceilings, which
 * serve every variant of a width at once); one for the run's time in no range. The bars add up to the run's wall
 * time. timeline.tsv holds them, timeline-notes.gp the page's title, colours and the largest stretches in no range.
 * No page for a run without timeline.csv, or with an empty one.
 */
#ifndef MEMSCOPE_REPORT_TIMELINE_PAGE_H
#define MEMSCOPE_REPORT_TIMELINE_PAGE_H

#include "model.h"

/* Sets m->timeline_bars (0: nothing written). */
int report_write_timeline(struct report_model *m, const char *dir, struct error *e);

#endif
