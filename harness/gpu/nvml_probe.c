#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvml_probe.h"

/* The few NVML declarations used, from NVML's documented ABI. */
typedef int nvml_return;
typedef struct nvml_device *nvml_device;
enum { NVML_SUCCESS = 0, NVML_ERROR_NOT_FOUND = 6, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };
struct nvml_process_info { /* nvmlProcessInfo_t, as _v3 fills it */
    unsigned pid;
    unsigned long long used_gpu_memory;
    unsigned gpu_instance_id, compute_instance_id;
};
struct nvml_utilization_sample { /* nvmlProcessUtilizationSample_t */
    unsigned pid;
    unsigned long long time_stamp_us;
    unsigned sm_util, mem_util, enc_util, dec_util;
};

struct nvml {
    void *library;
    nvml_device device;
    nvml_return (*shutdown)(void);
    nvml_return (*driver_version)(char *, unsigned);
    nvml_return (*clock)(nvml_device, int, unsigned *);
    nvml_return (*application_clock)(nvml_device, int, unsigned *);
    nvml_return (*temperature)(nvml_device, int, unsigned *);
    nvml_return (*power_limit)(nvml_device, unsigned *);
    /* Optional: NULL where the driver's NVML lacks them. */
    nvml_return (*compute_processes)(nvml_device, unsigned *, struct nvml_process_info *);
    nvml_return (*process_utilization)(nvml_device, struct nvml_utilization_sample *, unsigned *,
                                       unsigned long long);
};

static int nvml_open(struct nvml *n, const char *pci_bus_id)
{
    *n = (struct nvml){.library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)};
    if (!n->library)
        return -1;
    nvml_return (*init)(void) = (nvml_return(*)(void))dlsym(n->library, "nvmlInit_v2");
    nvml_return (*by_bus)(const char *, nvml_device *) =
        (nvml_return(*)(const char *, nvml_device *))dlsym(n->library, "nvmlDeviceGetHandleByPciBusId_v2");
    n->shutdown = (nvml_return(*)(void))dlsym(n->library, "nvmlShutdown");
    n->driver_version = (nvml_return(*)(char *, unsigned))dlsym(n->library, "nvmlSystemGetDriverVersion");
    n->clock = (nvml_return(*)(nvml_device, int, unsigned *))dlsym(n->library, "nvmlDeviceGetClockInfo");
    n->application_clock =
        (nvml_return(*)(nvml_device, int, unsigned *))dlsym(n->library, "nvmlDeviceGetApplicationsClock");
    n->temperature = (nvml_return(*)(nvml_device, int, unsigned *))dlsym(n->library, "nvmlDeviceGetTemperature");
    n->power_limit = (nvml_return(*)(nvml_device, unsigned *))dlsym(n->library, "nvmlDeviceGetPowerManagementLimit");
    n->compute_processes = (nvml_return(*)(nvml_device, unsigned *, struct nvml_process_info *))dlsym(
        n->library, "nvmlDeviceGetComputeRunningProcesses_v3");
    n->process_utilization =
        (nvml_return(*)(nvml_device, struct nvml_utilization_sample *, unsigned *, unsigned long long))dlsym(
            n->library, "nvmlDeviceGetProcessUtilization");
    if (!init || !by_bus || !n->shutdown || !n->driver_version || !n->clock || !n->application_clock ||
        !n->temperature || !n->power_limit || init() != NVML_SUCCESS) {
        dlclose(n->library);
        return -1;
    }
    if (by_bus(pci_bus_id, &n->device) != NVML_SUCCESS) {
        n->shutdown();
        dlclose(n->library);
        return -1;
    }
    return 0;
}

static void nvml_close(struct nvml *n)
{
    n->shutdown();
    dlclose(n->library);
}

/* The reading is taken here, before its value is used: never pass both as arguments of one call. */
static void add_reading(struct environment *env, const char *key, struct nvml *n, int which,
                      nvml_return (*read)(nvml_device, int, unsigned *))
{
    unsigned value = 0;
    if (read(n->device, which, &value) == NVML_SUCCESS)
        env_add(env, key, "%u", value);
    else
        env_add(env, key, "unavailable");
}

void nvml_probe_driver(struct environment *env, const char *pci_bus_id)
{
    struct nvml n;
    char version[96];
    unsigned power_mw = 0;
    if (nvml_open(&n, pci_bus_id) != 0) {
        env_add(env, "driver_version", "unavailable");
        return;
    }
    if (n.power_limit(n.device, &power_mw) == NVML_SUCCESS)
        env_add(env, "power_limit_w", "%u", power_mw / 1000);
    else
        env_add(env, "power_limit_w", "unavailable");
    add_reading(env, "sm_clock_application_mhz", &n, NVML_CLOCK_SM, n.application_clock);
    add_reading(env, "memory_clock_application_mhz", &n, NVML_CLOCK_MEM, n.application_clock);
    if (n.driver_version(version, sizeof version) == NVML_SUCCESS)
        env_add(env, "driver_version", "%s", version);
    else
        env_add(env, "driver_version", "unavailable");
    nvml_close(&n);
}

void nvml_probe_clocks(struct environment *env, const char *pci_bus_id, const char *when)
{
    struct nvml n;
    char sm_key[48], mem_key[48], temp_key[48];
    snprintf(sm_key, sizeof sm_key, "sm_clock_mhz_%s", when);
    snprintf(mem_key, sizeof mem_key, "memory_clock_mhz_%s", when);
    snprintf(temp_key, sizeof temp_key, "temperature_c_%s", when);
    if (nvml_open(&n, pci_bus_id) != 0) {
        env_add(env, sm_key, "unavailable");
        env_add(env, mem_key, "unavailable");
        env_add(env, temp_key, "unavailable");
        return;
    }
    add_reading(env, sm_key, &n, NVML_CLOCK_SM, n.clock);
    add_reading(env, mem_key, &n, NVML_CLOCK_MEM, n.clock);
    add_reading(env, temp_key, &n, NVML_TEMPERATURE_GPU, n.temperature);
    nvml_close(&n);
}

/* The watch of other processes' work: NVML opened once for the run. */
static struct nvml watch;
static bool watching;
static char watch_blind[160]; /* why NVML cannot tell, when it cannot */

static void name_process(unsigned pid, char *out, size_t len)
{
    char path[64], comm[64] = "";
    snprintf(path, sizeof path, "/proc/%u/comm", pid);
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(comm, sizeof comm, f))
            comm[0] = '\0';
        fclose(f);
    }
    comm[strcspn(comm, "\n")] = '\0';
    snprintf(out, len, "pid %u%s%s%s", pid, comm[0] ? " (" : "", comm, comm[0] ? ")" : "");
}

/* NVML names processes by their pid in its own namespace: if it does not list this one, which holds a context
 * on the GPU, its pids cannot be told apart from ours. */
static bool lists_this_process(void)
{
    struct nvml_process_info p[64];
    unsigned n = 64;
    if (watch.compute_processes(watch.device, &n, p) != NVML_SUCCESS)
        return false;
    for (unsigned i = 0; i < n; ++i)
        if (p[i].pid == (unsigned)getpid())
            return true;
    return false;
}

void gpu_watch_start(const char *pci_bus_id)
{
    watch_blind[0] = '\0';
    if (nvml_open(&watch, pci_bus_id) != 0) {
        snprintf(watch_blind, sizeof watch_blind, "unknown: NVML could not be opened");
        return;
    }
    watching = true;
    if (!watch.compute_processes || !watch.process_utilization)
        snprintf(watch_blind, sizeof watch_blind, "unknown: this driver's NVML cannot list processes");
    else if (!lists_this_process())
        snprintf(watch_blind, sizeof watch_blind, "unknown: NVML does not list this process (another pid namespace)");
}

unsigned long long gpu_watch_now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t); /* NVML stamps its samples with the wall clock, in microseconds */
    return (unsigned long long)t.tv_sec * 1000000ull + (unsigned long long)t.tv_nsec / 1000ull;
}

/* Adds "pid N (name)<detail>" to the list in out, once a process, after separator when the list is not empty. */
static void append_process(char *out, size_t len, const char *separator, unsigned pid, const char *detail)
{
    char who[96];
    size_t used = strlen(out);
    name_process(pid, who, sizeof who);
    if (strstr(out, who) == NULL && used + 1 < len)
        snprintf(out + used, len - used, "%s%s%s", used ? separator : "", who, detail);
}

void gpu_watch_others_between(unsigned long long from_us, unsigned long long until_us, char *out, size_t len)
{
    static struct nvml_utilization_sample samples[1024];
    unsigned n = sizeof samples / sizeof samples[0];
    out[0] = '\0';
    if (!watching || watch_blind[0]) {
        snprintf(out, len, "%s", watching ? watch_blind : "unknown: NVML could not be opened");
        return;
    }
    nvml_return rc = watch.process_utilization(watch.device, samples, &n, from_us);
    if (rc == NVML_ERROR_NOT_FOUND) /* no process used the GPU since */
        return;
    if (rc != NVML_SUCCESS) {
        snprintf(out, len, "unknown: NVML's process utilization failed (NVML error %d)", rc);
        return;
    }
    for (unsigned i = 0; i < n; ++i)
        if (samples[i].pid != (unsigned)getpid() && samples[i].sm_util > 0 &&
            samples[i].time_stamp_us <= until_us) {
            char detail[32];
            snprintf(detail, sizeof detail, ", SM %u %%", samples[i].sm_util);
            append_process(out, len, "; ", samples[i].pid, detail);
        }
}

void gpu_watch_list_others(char *out, size_t len)
{
    struct nvml_process_info p[64];
    unsigned n = 64;
    out[0] = '\0';
    if (!watching || !watch.compute_processes || watch.compute_processes(watch.device, &n, p) != NVML_SUCCESS)
        return;
    for (unsigned i = 0; i < n; ++i)
        if (p[i].pid != (unsigned)getpid())
            append_process(out, len, ", ", p[i].pid, "");
}

void gpu_watch_stop(void)
{
    if (watching)
        nvml_close(&watch);
    watching = false;
}
