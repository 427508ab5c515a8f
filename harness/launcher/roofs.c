#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/paths.h"
#include "merge.h"
#include "program.h"
#include "roofs.h"

#define MEMSCOPE "memscope"

/* The SM's resources: the launcher's findings read them from the same environment (profile/profile_summary.c), and
 * the report's again from the profile's (report/diagnosis_page.c). */
static const char *const sm_resources[] = {
    "sm_count",     "sm_max_warps",           "sm_max_blocks",
    "sm_registers", "sm_shared_memory_bytes", "block_reserved_shared_memory_bytes"};

int roofs_merge(const struct environment *ceilings, struct environment *profile, char *why, size_t len)
{
    const char *measured = env_value(ceilings, "gpu_name"), *ran = env_value(profile, "gpu_name");
    if (!measured || !ran || strcmp(measured, ran) != 0) {
        snprintf(why, len, "the ceilings were measured on %s, the program ran on %s", measured ? measured : "no GPU",
                 ran ? ran : "no GPU");
        return 0;
    }
    int n = env_copy_prefixed(ceilings, "ceiling_", profile);
    if (n == 0)
        snprintf(why, len, "memscope --measure-ceilings recorded none");
    for (size_t i = 0; n > 0 && i < sizeof sm_resources / sizeof sm_resources[0]; ++i)
        if (env_value(ceilings, sm_resources[i]) && !env_value(profile, sm_resources[i]))
            env_add(profile, sm_resources[i], "%s", env_value(ceilings, sm_resources[i]));
    return n;
}

/* memscope beside our own binary, as the injection library is. */
static int find_memscope(char *path, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", path, len - 1);
    if (n < 0)
        return -1;
    path[n] = '\0';
    *strrchr(path, '/') = '\0';
    size_t used = strlen(path);
    snprintf(path + used, len - used, "/%s", MEMSCOPE);
    return access(path, X_OK);
}

/* memscope run without the injection library the launcher set up for the program: profiled itself, its
 * ceiling kernels would be replayed, their times and so the roofs wrong, and it would leave a part of its own in
 * the profile. The launcher's variables are set again for the program's later runs. */
static void run_uninjected(char *const argv[], struct program_end *end)
{
    static const char *const injection[] = {"CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH"};
    char *saved[2];
    for (int i = 0; i < 2; ++i) {
        const char *value = getenv(injection[i]);
        saved[i] = value ? strdup(value) : NULL;
        unsetenv(injection[i]);
    }
    program_run(argv, "MEMSCOPE_CEILINGS_PID", end);
    for (int i = 0; i < 2; ++i)
        if (saved[i]) {
            setenv(injection[i], saved[i], 1);
            free(saved[i]);
        }
}

/* memscope --measure-ceilings into a fresh temporary folder; its environment into out. 0 when it gave one. */
static int measure(long wait_gpu_s, struct environment *out, char *why, size_t len)
{
    char memscope[PATH_LEN], scratch[] = "/tmp/memscope-ceilings-XXXXXX", dir[sizeof scratch + 16], wait[32];
    struct program_end end;
    struct error e = {0};
    if (find_memscope(memscope, sizeof memscope) != 0)
        return snprintf(why, len, "%s is missing beside memscope-profile: build it with make", MEMSCOPE), -1;
    if (!mkdtemp(scratch))
        return snprintf(why, len, "cannot create a temporary folder: %s", strerror(errno)), -1;
    snprintf(dir, sizeof dir, "%s/ceilings", scratch);
    snprintf(wait, sizeof wait, "%ld", wait_gpu_s);
    char *argv[] = {memscope, "--measure-ceilings", "--wait-gpu", wait, "-o", dir, NULL};
    fflush(NULL);
    run_uninjected(argv, &end);
    int rc = end.not_started || !end.exited || end.status != 0 ? -1 : env_read(dir, out, &e) ? -1 : 0;
    if (rc != 0)
        snprintf(why, len, "%s", e.code ? e.message : "memscope --measure-ceilings failed (its message is above)");
    /* ours alone: the folder memscope wrote into, and the temporary folder around it */
    char file[sizeof dir + 32];
    snprintf(file, sizeof file, "%s/environment.csv", dir);
    unlink(file);
    rmdir(dir);
    rmdir(scratch);
    return rc;
}

/* The ceilings appended to dir/environment.csv, where it names the GPU they were measured on. A part without one
 * (a process whose CUDA never started) or that ran on no GPU (torchrun's own) gets none, and nothing is said. */
static int add_to(const char *dir, const struct environment *ceilings, struct error *e)
{
    static struct environment profile;
    char why[PATH_LEN + 128], path[PATH_LEN + 32];
    snprintf(path, sizeof path, "%s/environment.csv", dir);
    if (access(path, F_OK) != 0)
        return 0;
    if (env_read(dir, &profile, e))
        return e->code;
    if (!env_value(&profile, "gpu_name") || !*env_value(&profile, "gpu_name"))
        return 0;
    if (roofs_merge(ceilings, &profile, why, sizeof why) == 0) {
        fprintf(stderr, "memscope-profile: no measured roofs in %s: %s\n", dir, why);
        return 0;
    }
    return env_write(&profile, dir, e);
}

int roofs_add(const char *folder, long wait_gpu_s, struct environment *ceilings, struct error *e)
{
    struct part_names parts;
    char why[PATH_LEN + 128], dir[PATH_LEN + MERGE_PART_NAME_LEN + 2];
    if (measure(wait_gpu_s, ceilings, why, sizeof why) != 0) {
        fprintf(stderr, "memscope-profile: no measured roofs: %s\n", why);
        *ceilings = (struct environment){0};
        return 0;
    }
    if (merge_list_parts(folder, &parts, e))
        return e->code;
    /* the program's own part, where it used CUDA beside its children: it is moved into one of its own later */
    if (parts.at[0].dir[0] && add_to(folder, ceilings, e))
        return e->code;
    for (size_t i = 0; i < parts.n && !e->code; ++i) {
        snprintf(dir, sizeof dir, "%s/%s", folder, parts.at[i].dir);
        add_to(dir, ceilings, e);
    }
    return e->code;
}
