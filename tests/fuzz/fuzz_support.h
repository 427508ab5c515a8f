/*
 * What the fuzz targets share: the readers take paths, so each target writes
 * its input into files of one scratch folder under /tmp, made once per
 * process and removed when it exits. Nothing is written anywhere else.
 */
#ifndef MEMSCOPE_FUZZ_SUPPORT_H
#define MEMSCOPE_FUZZ_SUPPORT_H

#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char fuzz_dir[] = "/tmp/memscope-fuzz-XXXXXX";

static int fuzz_remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path);
}

static inline void fuzz_remove_folder(void)
{
    nftw(fuzz_dir, fuzz_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The scratch folder; a target cannot go on without it. */
static inline const char *fuzz_folder(void)
{
    static int made;
    if (!made) {
        if (!mkdtemp(fuzz_dir)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(fuzz_remove_folder);
        made = 1;
    }
    return fuzz_dir;
}

/* fuzz_dir/name, holding exactly the given bytes. A new file each time: ext4 writes a file that is truncated and
 * written again out to the disk when it is closed (auto_da_alloc), which made the targets wait on the disk. */
static inline void fuzz_write(char *path, size_t len, const char *name, const uint8_t *data, size_t size)
{
    snprintf(path, len, "%s/%s", fuzz_folder(), name);
    remove(path);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

/* The next piece of data up to the separator byte (or the end); *rest moves past it. NULL once nothing is left. */
static inline const uint8_t *fuzz_piece(const uint8_t **rest, const uint8_t *end, uint8_t separator, size_t *size)
{
    const uint8_t *start = *rest;
    if (!start)
        return NULL;
    const uint8_t *at = memchr(start, separator, (size_t)(end - start));
    *size = (size_t)((at ? at : end) - start);
    *rest = at ? at + 1 : NULL;
    return start;
}

#endif
