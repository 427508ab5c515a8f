#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "driver.h"

/* The three driver API calls asked, as libcuda.so.1 exports them (CUresult is an int, 0 for success): declared
 * here, since memscope-profile links no CUDA and builds without its headers. */
typedef int (*cu_init_fn)(unsigned flags);
typedef int (*cu_device_get_count_fn)(int *count);
typedef int (*cu_get_error_string_fn)(int error, const char **text);

bool driver_finds_no_gpu(char *why, size_t len)
{
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver) {
        snprintf(why, len, "no NVIDIA driver on this machine (%s)", dlerror());
        return true;
    }
    cu_init_fn init = (cu_init_fn)dlsym(driver, "cuInit");
    cu_device_get_count_fn get_count = (cu_device_get_count_fn)dlsym(driver, "cuDeviceGetCount");
    cu_get_error_string_fn describe = (cu_get_error_string_fn)dlsym(driver, "cuGetErrorString");
    if (!init || !get_count || !describe) {
        snprintf(why, len, "the NVIDIA driver's libcuda.so.1 lacks cuInit, cuDeviceGetCount or cuGetErrorString");
        return true;
    }
    /* The injection library is the program's: cuInit here would load it into memscope-profile. */
    unsetenv("CUDA_INJECTION64_PATH");
    int count = 0, rc = init(0);
    if (rc == 0)
        rc = get_count(&count);
    const char *text = "unknown error";
    if (rc != 0 && describe(rc, &text) != 0)
        text = "unknown error";
    if (rc != 0)
        snprintf(why, len, "the NVIDIA driver finds no usable GPU (%s, CUresult %d)", text, rc);
    else if (count == 0)
        snprintf(why, len, "the NVIDIA driver finds no GPU");
    /* The driver stays loaded: unloading it after cuInit is not safe, and memscope-profile is about to exit. */
    return rc != 0 || count == 0;
}
