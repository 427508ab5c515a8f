/*
 * Driver version and clocks through NVML, loaded at run time: the toolkit here
 * ships no nvml.h, and a binary linked against NVML would not start on a
 * machine without the driver. Where NVML is missing, values read "unavailable".
 */
#ifndef MEMSCOPE_NVML_PROBE_H
#define MEMSCOPE_NVML_PROBE_H

#include "../results/environment_csv.h"

void nvml_probe_driver(struct environment *env, const char *pci_bus_id);
void nvml_probe_clocks(struct environment *env, const char *pci_bus_id, const char *when);

/* Other processes' work on the GPU, as NVML samples it (about every 1/6 s): a run started once, after its own
 * context exists, watches the GPU until it stops. */
void gpu_watch_start(const char *pci_bus_id);
/* NVML's clock: microseconds since the epoch. */
unsigned long long gpu_watch_now_us(void);
/* A margin of one NVML sampling period (NVML samples each process about every 1/6 s, and stamps a sample at the
 * end of its period). */
#define GPU_WATCH_SAMPLE_US 500000ull
/* Who else used the GPU's SMs in the samples stamped from from_us to until_us: "" when nobody; "pid N (name), SM
 * U %" for each process seen; "unknown: why" when NVML cannot tell. */
void gpu_watch_others_between(unsigned long long from_us, unsigned long long until_us, char *out, size_t len);
/* The other processes that hold a context on the GPU, "pid N (name), ...": "" when none or NVML cannot tell. */
void gpu_watch_list_others(char *out, size_t len);
void gpu_watch_stop(void);

#endif
