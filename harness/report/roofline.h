/*
 * The hierarchical roofline page and its key: each variant's FLOP per byte at L1/shared, L2 and DRAM at the
 * largest width, under roofs measured by the run (environment.csv's ceiling_* keys) or, for a run without
 * them, the datasheet's.
 */
#ifndef MEMSCOPE_REPORT_ROOFLINE_H
#define MEMSCOPE_REPORT_ROOFLINE_H

#include "../results/folder_reader.h"
#include "model.h"

struct ceiling_rates;

/* The datasheet figures of the run's GPU, from environment.csv (harness/ceilings/rates.c); NAN where unknown. */
int report_datasheet(const struct results_folder *r, struct ceiling_rates *out, struct error *e);

/* The hierarchical roofline (roofline.c), at the largest width: roofline.tsv (a row per variant that passed:
 * its FLOP per byte at L1/shared, L2 and DRAM, its GFLOP/s and its bound), roofline-key.tsv (the same for the
 * key's table), roofline-labels.tsv (where each point's number goes, no two meeting) and roofs.gp (the roofs,
 * measured or datasheet, the chart's ranges and its frame on the page); sets m->roofline_points. */
int report_write_roofline(struct report_model *m, const char *dir, struct error *e);

#endif
