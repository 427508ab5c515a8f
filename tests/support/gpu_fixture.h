/* The GPU a test file's tests share: opened once for the group where one is present, else left closed so that
 * each test skips (see gpu_present.h). */
#ifndef MEMSCOPE_GPU_FIXTURE_H
#define MEMSCOPE_GPU_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>

#include "../../harness/gpu/environment.h"
#include "gpu_present.h"

static struct gpu gpu;
static bool have_gpu;

static int open_gpu(void **state)
{
    (void)state;
    struct error e = {0};
    have_gpu = gpu_present();
    if (have_gpu && gpu_open(&gpu, 0, NULL, &e) != 0) {
        fprintf(stderr, "gpu_open: %s\n", e.message);
        return -1;
    }
    return 0;
}

static int close_gpu(void **state)
{
    (void)state;
    struct error e = {0};
    return have_gpu ? gpu_close(&gpu, &e) : 0;
}

#endif
