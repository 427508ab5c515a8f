/* A file in /tmp of this test process alone: memscope replaces no file (docs/command-line.md, "What memscope
 * writes"), and other test runs, of other checkouts too, may share /tmp. */
#ifndef MEMSCOPE_PROCESS_PATH_H
#define MEMSCOPE_PROCESS_PATH_H

#include <stdio.h>
#include <unistd.h>

/* /tmp/<stem>-<pid>.<extension>, written into path. */
static inline const char *process_path(char *path, size_t size, const char *stem, const char *extension)
{
    snprintf(path, size, "/tmp/%s-%d.%s", stem, (int)getpid(), extension);
    return path;
}

#endif
