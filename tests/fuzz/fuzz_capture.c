/*
 * The capture-file reader up to where CUPTI's host library takes over, as
 * memscope-decode reads a capture: prof_capture_read, then the batch's tags
 * (capture_tags_summed, capture_tags_calls, capture_tags_call for every call). No CUPTI function
 * is called.
 */
#include "fuzz_support.h"

#include "../../harness/common/paths.h"
#include "../../harness/profile/profile.h"
#include "../../harness/results/capture_tags.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct prof_capture capture;
    static struct tagged_call call;
    char path[PATH_LEN], tag[32];
    struct prof_error e = {0};
    fuzz_write(path, sizeof path, "fuzz.capture", data, size);
    if (prof_capture_read(path, &capture, &e))
        return 0;
    const char *summed[MAX_SUMMED];
    capture_tags_summed(&capture, summed, MAX_SUMMED);
    int calls = capture_tags_calls(&capture, MAX_BATCH);
    for (int i = 0; i < calls; ++i)
        if (capture_tags_call(&capture, i, &call, tag, sizeof tag) != TAGGED_CALL_OK)
            break;
    prof_capture_free(&capture);
    return 0;
}
