/*
 * Driver version and clocks through NVML, loaded at run time: the toolkit here
 * ships no nvml.h, and a binary linked against NVML would not start on a
 * machine without the driver. Where NVML is missing, values read "unavailable".
 */
#ifndef MEMSCOPE_NVML_PROBE_H
#define MEMSCOPE_NVML_PROBE_H

#include "environment_entries.h"

void nvml_probe_driver(struct environment *env, const char *pci_bus_id);
void nvml_probe_clocks(struct environment *env, const char *pci_bus_id, const char *when);

#endif
