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

#endif
