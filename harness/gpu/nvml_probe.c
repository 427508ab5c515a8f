#include <dlfcn.h>
#include <stdio.h>

#include "nvml_probe.h"

/* The few NVML declarations used, from NVML's documented ABI. */
typedef int nvml_return;
typedef struct nvml_device *nvml_device;
enum { NVML_SUCCESS = 0, NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2, NVML_TEMPERATURE_GPU = 0 };

struct nvml {
    void *library;
    nvml_device device;
    nvml_return (*shutdown)(void);
    nvml_return (*driver_version)(char *, unsigned);
    nvml_return (*clock)(nvml_device, int, unsigned *);
    nvml_return (*application_clock)(nvml_device, int, unsigned *);
    nvml_return (*temperature)(nvml_device, int, unsigned *);
    nvml_return (*power_limit)(nvml_device, unsigned *);
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
