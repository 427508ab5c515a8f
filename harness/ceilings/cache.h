/*
 * The ceilings of a GPU, measured once and reused: `memscope --measure-ceilings` (harness/run/) keeps what it
 * measured in a cache entry, a folder holding an environment.csv, named by what makes the figures valid: the GPU
 * (its UUID), the driver, and the memscope build (its commit; a build with uncommitted changes is never cached,
 * since its commit does not name its kernels). memscope-profile asks for them before each program it profiles and
 * copies them into the profile's environment.csv: the program's roofs. Host-only (no CUDA call): the key's parts
 * come from the caller.
 *
 * Where: $MEMSCOPE_CACHE_DIR if set, else $XDG_CACHE_HOME/memscope, else $HOME/.cache/memscope (the XDG base
 * directory rule); the entries in its ceilings/ folder.
 */
#ifndef MEMSCOPE_CEILINGS_CACHE_H
#define MEMSCOPE_CEILINGS_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/error.h"
#include "../results/environment_csv.h"

/* What the figures are valid for: environment.csv's gpu_uuid, driver_version (NVML's; where NVML is unavailable,
 * cuda_driver_version), git_commit and git_dirty. */
struct ceiling_cache_key {
    const char *gpu_uuid, *driver, *commit, *dirty;
};

/* The entry's folder for key. Returns NULL and says why in why (a build with uncommitted changes, an unknown
 * commit, no cache folder: neither $MEMSCOPE_CACHE_DIR, $XDG_CACHE_HOME nor $HOME) where there is none. */
const char *ceiling_cache_entry(const struct ceiling_cache_key *k, char *path, size_t len, char *why, size_t why_len);

/* The cached ceilings of key into out (*found), or *found false: no entry, or one whose own key entries differ
 * (a folder renamed or copied by hand is not trusted). An entry that cannot be read is an error naming it. */
int ceiling_cache_load(const struct ceiling_cache_key *k, struct environment *out, bool *found, struct error *e);

/* Stores the ceilings of measured (ceiling_entries_copy's) under key, with the key's parts, written complete
 * (entry.partial, then renamed). Nothing is stored, and *stored is false, where ceiling_cache_entry gives no entry. */
int ceiling_cache_store(const struct ceiling_cache_key *k, const struct environment *measured, bool *stored,
                        struct error *e);

/* The entries of from that hold ceilings (the ceiling_* keys, the reason one was not measured included) appended
 * to to; how many. */
int ceiling_entries_copy(const struct environment *from, struct environment *to);

#endif
