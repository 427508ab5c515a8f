/*
 * Linked into every program and test of `make test SANITIZE=1`, and nowhere
 * else. CUPTI's host library loads libnvperf_host.so with RTLD_DEEPBIND,
 * which the sanitizer runtimes refuse (they stop the process: see
 * https://github.com/google/sanitizers/issues/611). This dlopen, found before
 * the runtime's, drops that flag and hands the call on.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

void *dlopen(const char *file, int mode)
{
    static void *(*next)(const char *, int);
    if (!next)
        *(void **)&next = dlsym(RTLD_NEXT, "dlopen");
    return next ? next(file, mode & ~RTLD_DEEPBIND) : NULL;
}
