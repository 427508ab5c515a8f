#include <string.h>

#include "../ceilings/cache.h"
#include "../ceilings/measure.h"
#include "../gpu/environment.h"
#include "../gpu/gpu.h"
#include "../gpu/gpu_lock.h"
#include "ceilings_only.h"
#include "version.h"

/* The driver part of the key: NVML's driver version (580.159.04) where NVML answers, else CUDA's (13.0). */
static const char *driver_of(const struct environment *env)
{
    const char *nvml = env_value(env, "driver_version");
    return nvml && strcmp(nvml, "unavailable") != 0 ? nvml : env_value(env, "cuda_driver_version");
}

/* Measured under the GPU's lock, as a run measures them; then cached where the build allows it. The note says
 * which, for the folder's ceiling_cache entry. */
static int measure_and_store(const struct options *o, struct gpu *g, const struct ceiling_cache_key *k,
                             struct environment *env, char *note, size_t len, struct error *e)
{
    char entry[PATH_LEN], why[160];
    bool stored;
    if (gpu_lock_take(gpu_lock_folder(), k->gpu_uuid, env_value(env, "command_line"), o->wait_gpu_s, stderr,
                      &g->waited_s, e) ||
        ceilings_measure(g, env, e) || ceiling_cache_store(k, env, &stored, e))
        return e->code;
    const char *where = ceiling_cache_entry(k, entry, sizeof entry, why, sizeof why);
    if (stored)
        snprintf(note, len, "measured, stored in %s", where);
    else
        snprintf(note, len, "measured, not stored: %s", why);
    return 0;
}

int run_ceilings_only(const struct options *o, const struct results_dir *dir, struct environment *env,
                      struct error *e)
{
    struct gpu g = {0};
    static struct environment cached;
    char note[PATH_LEN + 64], entry[PATH_LEN], why[160];
    bool found = false;
    /* No turn taken yet: a cached entry needs none, and a measurement takes it before its first kernel. */
    if (gpu_open(&g, o->device, NULL, e) == 0 && env_collect_gpu(env, &g, e) == 0) {
        const struct ceiling_cache_key k = {env_value(env, "gpu_uuid"), driver_of(env), MEMSCOPE_GIT_COMMIT,
                                            MEMSCOPE_GIT_DIRTY};
        if (ceiling_cache_load(&k, &cached, &found, e) == 0 && found) {
            ceiling_entries_copy(&cached, env);
            snprintf(note, sizeof note, "reused %s", ceiling_cache_entry(&k, entry, sizeof entry, why, sizeof why));
        } else if (!e->code) {
            measure_and_store(o, &g, &k, env, note, sizeof note, e);
        }
    }
    if (!e->code) {
        env_add(env, "ceiling_cache", "%s", note);
        if (results_dir_create(dir, e) == 0 && env_write(env, dir->partial_path, e) == 0 &&
            results_dir_commit(dir, e) == 0)
            printf("ceilings: %s\nresults: %s\n", note, dir->final_path);
    }
    gpu_close(&g, e);
    return e->code;
}
