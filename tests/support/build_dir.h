/* The build folder whose programs a test runs: $MEMSCOPE_BUILD (tests/run-all sets it), else build/. */
#ifndef MEMSCOPE_BUILD_DIR_H
#define MEMSCOPE_BUILD_DIR_H

#include <stdlib.h>

static inline const char *build_dir(void)
{
    const char *dir = getenv("MEMSCOPE_BUILD");
    return dir && *dir ? dir : "build";
}

#endif
