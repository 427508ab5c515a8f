#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/paths.h"
#include "cache.h"

#define CEILING_PREFIX "ceiling_"

/* The key's parts as the entry records them (the driver: NVML's version, else CUDA's). */
static const char *key_names[] = {"gpu_uuid", "driver", "git_commit"};

static void key_values(const struct ceiling_cache_key *k, const char *values[3])
{
    values[0] = k->gpu_uuid;
    values[1] = k->driver;
    values[2] = k->commit;
}

/* $MEMSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/memscope, else $HOME/.cache/memscope; NULL where none is set. */
static const char *cache_folder(char *path, size_t len)
{
    const char *own = getenv("MEMSCOPE_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (own && *own)
        snprintf(path, len, "%s", own);
    else if (xdg && *xdg == '/') /* the XDG rule: a relative path is invalid and ignored */
        snprintf(path, len, "%s/memscope", xdg);
    else if (home && *home)
        snprintf(path, len, "%s/.cache/memscope", home);
    else
        return NULL;
    return path;
}

/* A part of the key as a file name: letters, digits, '.' and '-' kept, anything else '_'. */
static void name_part(const char *text, char *out, size_t len)
{
    size_t i = 0;
    for (; text[i] && i + 1 < len; ++i)
        out[i] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-", text[i]) ? text[i] : '_';
    out[i] = '\0';
}

const char *ceiling_cache_entry(const struct ceiling_cache_key *k, char *path, size_t len, char *why, size_t why_len)
{
    char folder[PATH_LEN], uuid[64], driver[32], commit[64];
    if (!k->dirty || strcmp(k->dirty, "0") != 0) {
        snprintf(why, why_len, "this memscope was built with uncommitted changes: its commit does not name its kernels");
        return NULL;
    }
    if (!k->commit || !*k->commit || strcmp(k->commit, "unknown") == 0 || !k->gpu_uuid || !*k->gpu_uuid ||
        !k->driver || !*k->driver) {
        snprintf(why, why_len, "the GPU, driver or memscope commit is unknown");
        return NULL;
    }
    if (!cache_folder(folder, sizeof folder)) {
        snprintf(why, why_len, "no cache folder: set MEMSCOPE_CACHE_DIR, XDG_CACHE_HOME or HOME");
        return NULL;
    }
    name_part(k->gpu_uuid, uuid, sizeof uuid);
    name_part(k->driver, driver, sizeof driver);
    name_part(k->commit, commit, sizeof commit);
    if ((size_t)snprintf(path, len, "%s/ceilings/%s_driver-%s_%s", folder, uuid, driver, commit) >= len) {
        snprintf(why, why_len, "the cache folder's path is too long: %s", folder);
        return NULL;
    }
    return path;
}

int ceiling_cache_load(const struct ceiling_cache_key *k, struct environment *out, bool *found, struct error *e)
{
    char entry[PATH_LEN], file[PATH_JOINED(PATH_LEN)], why[160];
    const char *values[3];
    struct stat st;
    *found = false;
    if (!ceiling_cache_entry(k, entry, sizeof entry, why, sizeof why))
        return 0;
    snprintf(file, sizeof file, "%s/environment.csv", entry);
    if (stat(file, &st) != 0)
        return 0;
    if (env_read(entry, out, e))
        return e->code;
    key_values(k, values);
    for (int i = 0; i < 3; ++i) {
        const char *cached = env_value(out, key_names[i]);
        if (!cached || strcmp(cached, values[i]) != 0)
            return 0;
    }
    *found = true;
    return 0;
}

/* mkdir -p of path's folders and path itself. */
static int make_folders(char *path, struct error *e)
{
    for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
        if (slash)
            *slash = '\0';
        int rc = mkdir(path, 0777);
        int failed = rc != 0 && errno != EEXIST;
        if (failed)
            error_set(e, EXIT_OUTPUT, "cannot create %s: %s", path, strerror(errno));
        if (slash)
            *slash = '/';
        if (failed || !slash)
            return e->code;
    }
}

int ceiling_cache_store(const struct ceiling_cache_key *k, const struct environment *measured, bool *stored,
                        struct error *e)
{
    char entry[PATH_LEN], partial[PATH_LEN + 16], why[160];
    const char *values[3];
    static struct environment cached;
    *stored = false;
    if (!ceiling_cache_entry(k, entry, sizeof entry, why, sizeof why))
        return 0;
    snprintf(partial, sizeof partial, "%s.partial", entry);
    cached = (struct environment){0};
    key_values(k, values);
    for (int i = 0; i < 3; ++i)
        env_add(&cached, key_names[i], "%s", values[i]);
    ceiling_entries_copy(measured, &cached);
    if (make_folders(partial, e) || env_write(&cached, partial, e))
        return e->code;
    /* a complete entry of another process, measured meanwhile, is as good as ours: ours replaces it */
    char old_file[PATH_JOINED(PATH_LEN)];
    snprintf(old_file, sizeof old_file, "%s/environment.csv", entry);
    remove(old_file);
    rmdir(entry);
    if (rename(partial, entry) != 0)
        return error_set(e, EXIT_OUTPUT, "cannot rename %s to %s: %s", partial, entry, strerror(errno));
    *stored = true;
    return 0;
}

int ceiling_entries_copy(const struct environment *from, struct environment *to)
{
    return env_copy_prefixed(from, CEILING_PREFIX, to);
}
