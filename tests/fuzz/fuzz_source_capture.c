/*
 * The source capture reader, as memscope-decode --lines reads a capture: source_capture_read, then every
 * call's lines (source_lines) and totals (source_function_totals). No CUPTI function is called.
 */
#include "fuzz_support.h"

#include "../../harness/common/paths.h"
#include "../../harness/source/source_lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct source_capture capture;
    char path[PATH_LEN];
    struct error e = {0};
    fuzz_write(path, sizeof path, "fuzz.source", data, size);
    if (source_capture_read(path, &capture, &e))
        return 0;
    for (int k = 0; k < capture.n_calls && !e.code; ++k) {
        struct source_line *lines;
        size_t n;
        double totals[LINE_METRIC_COUNT];
        if (source_lines(&capture.calls[k], &lines, &n, &e) == 0)
            free(lines);
        if (capture.calls[k].n > 0)
            source_function_totals(&capture.calls[k], capture.calls[k].instructions[0].function, totals);
    }
    source_capture_free(&capture);
    return 0;
}
