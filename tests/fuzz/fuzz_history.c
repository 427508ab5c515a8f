/* The history reader: history_chart_data on the input as a history CSV, writing its chart data into a scratch
 * folder. The first byte picks the options (a GPU given or the last run's, a width given or the largest). */
#include "fuzz_support.h"

#include "../../harness/history/history.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[PATH_LEN], out[PATH_LEN];
    uint8_t options = size ? data[0] : 0;
    const char *gpu = options & 1 ? "NVIDIA H100 80GB HBM3" : NULL;
    int width = options & 2 ? 1024 : 0;
    if (size) {
        ++data;
        --size;
    }
    fuzz_write(path, sizeof path, "history.csv", data, size);
    snprintf(out, sizeof out, "%s/chart", fuzz_folder());
    mkdir(out, 0700);
    /* Removed first, so that the reader writes new files (see fuzz_write). */
    for (int i = 0; i < 2; ++i) {
        char chart[PATH_LEN + 32];
        snprintf(chart, sizeof chart, "%s/%s", out, i ? "history.tsv" : "variables.gp");
        remove(chart);
    }
    struct error e = {0};
    history_chart_data(path, gpu, width, 0.02, out, &e);
    return 0;
}
