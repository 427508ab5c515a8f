/* Removing a test's scratch folder and everything in it. Needs _XOPEN_SOURCE 700 before any include. */
#ifndef MEMSCOPE_REMOVE_TREE_H
#define MEMSCOPE_REMOVE_TREE_H

#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path);
}

/* Deepest entries first; symbolic links are removed, not followed. */
static inline int remove_tree(const char *path)
{
    return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
