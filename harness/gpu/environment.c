#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "environment.h"
#include "nvml_probe.h"
#include "version.h"

static void join_command_line(char *buf, size_t len, int argc, char **argv)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used < len; ++i) {
        const char *quote = strpbrk(argv[i], " \t'\"") ? "'" : "";
        used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s", i ? " " : "", quote, argv[i], quote);
    }
}

void env_collect_host(struct environment *env, int argc, char **argv)
{
    char host[256] = "unknown", stamp[32], command[512];
    gethostname(host, sizeof host - 1);
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    join_command_line(command, sizeof command, argc, argv);
    env_add(env, "suite", "memscope");
    env_add(env, "git_commit", "%s", MEMSCOPE_GIT_COMMIT);
    env_add(env, "git_dirty", "%s", MEMSCOPE_GIT_DIRTY);
    env_add(env, "host", "%s", host);
    env_add(env, "time_utc", "%s", stamp);
    env_add(env, "command_line", "%s", command);
    env_add(env, "nvcc_version", "%s", MEMSCOPE_NVCC_VERSION);
    env_add(env, "host_compiler", "gcc %s", __VERSION__);
    env_add(env, "cuda_arch", "%s", MEMSCOPE_CUDA_ARCH);
}

static int versions(struct environment *env, const struct gpu *g, struct error *e)
{
    int driver, runtime, cublas;
    CUDA_TRY(e, cudaDriverGetVersion(&driver));
    CUDA_TRY(e, cudaRuntimeGetVersion(&runtime));
    CUBLAS_TRY(e, cublasGetVersion(g->cublas, &cublas));
    env_add(env, "cuda_driver_version", "%d.%d", driver / 1000, driver % 1000 / 10);
    env_add(env, "cuda_runtime_version", "%d.%d", runtime / 1000, runtime % 1000 / 10);
    env_add(env, "cublas_version", "%d", cublas);
    return 0;
}

static int clocks_from_attributes(struct environment *env, const struct gpu *g, struct error *e)
{
    int sm_khz, mem_khz;
    CUDA_TRY(e, cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, g->device));
    CUDA_TRY(e, cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, g->device));
    env_add(env, "sm_clock_max_mhz", "%d", sm_khz / 1000);
    env_add(env, "memory_clock_max_mhz", "%d", mem_khz / 1000);
    return 0;
}

int env_collect_gpu(struct environment *env, const struct gpu *g, struct error *e)
{
    const struct cudaDeviceProp *p = &g->prop;
    char uuid[64], bus_id[32];
    gpu_uuid_text(g, uuid, sizeof uuid);
    CUDA_TRY(e, cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, g->device));
    env_add(env, "gpu_index", "%d", g->device);
    env_add(env, "gpu_name", "%s", p->name);
    env_add(env, "gpu_uuid", "%s", uuid);
    env_add(env, "gpu_pci_bus_id", "%s", bus_id);
    env_add(env, "gpu_wait_s", "%.1f", g->waited_s);
    env_add(env, "compute_capability", "%d.%d", p->major, p->minor);
    env_add(env, "sm_count", "%d", p->multiProcessorCount);
    env_add(env, "memory_bytes", "%zu", p->totalGlobalMem);
    env_add(env, "memory_bus_width_bits", "%d", p->memoryBusWidth);
    env_add(env, "l2_cache_bytes", "%d", p->l2CacheSize);
    /* An SM's resources: the findings work out from them the blocks it holds by each (diagnose/occupancy.h). */
    env_add(env, "sm_max_warps", "%d", p->maxThreadsPerMultiProcessor / p->warpSize);
    env_add(env, "sm_max_blocks", "%d", p->maxBlocksPerMultiProcessor);
    env_add(env, "sm_registers", "%d", p->regsPerMultiprocessor);
    env_add(env, "sm_shared_memory_bytes", "%zu", p->sharedMemPerMultiprocessor);
    env_add(env, "block_reserved_shared_memory_bytes", "%zu", p->reservedSharedMemPerBlock);
    if (clocks_from_attributes(env, g, e) || versions(env, g, e))
        return e->code;
    nvml_probe_driver(env, bus_id);
    return 0;
}

void env_collect_clocks(struct environment *env, const struct gpu *g, const char *when)
{
    char bus_id[32];
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, g->device) != cudaSuccess)
        bus_id[0] = '\0';
    nvml_probe_clocks(env, bus_id, when);
}
