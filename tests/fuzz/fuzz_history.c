/*
 * The history reader, as memscope-history uses it: the input is a history CSV
 * after one options byte. Bit 2 of the options first records a small run in
 * it (history_add, which reads the history to refuse a run recorded already,
 * then appends); then history_chart_data writes the chart data into a scratch
 * folder, for the GPU of the last run (bit 0: the H100 named) and its largest
 * width (bit 1: width 1024).
 */
#include "fuzz_support.h"

#include "../../harness/history/history.h"

/* A results folder of one run, as results_folder_open reads it: the first run of the committed H100 history. */
static const char *const run_files[][2] = {
    {"environment.csv", "key,value\ngpu_name,NVIDIA H100 80GB HBM3\ngit_commit,60dceeeabb15aa26c1aa7f8f3bd7cc75b0453d3b\n"
                        "git_dirty,0\ntime_utc,2026-11-21T09:22:43Z\n"},
    {"summary.csv", "variant,precision,width,status,samples,median_ms,q1_ms,q3_ms\n"
                    "naive,fp32,1024,passed,2,0.3494559973,0.3492480069,0.3497359976\n"},
    {"samples.csv", "variant,precision,width,sample,time_ms\nnaive,fp32,1024,0,0.3494\nnaive,fp32,1024,1,0.3495\n"},
};

static struct results_folder run;

static void close_run(void)
{
    results_folder_close(&run);
}

static const struct results_folder *recorded_run(void)
{
    static int opened;
    if (!opened) {
        char dir[PATH_LEN], path[PATH_LEN];
        snprintf(dir, sizeof dir, "%s/run", fuzz_folder());
        mkdir(dir, 0700);
        for (size_t i = 0; i < sizeof run_files / sizeof run_files[0]; ++i) {
            char name[64];
            snprintf(name, sizeof name, "run/%s", run_files[i][0]);
            fuzz_write(path, sizeof path, name, (const uint8_t *)run_files[i][1], strlen(run_files[i][1]));
        }
        struct error e = {0};
        if (results_folder_open(dir, &run, &e)) {
            fprintf(stderr, "fuzz_history: %s\n", e.message);
            abort();
        }
        atexit(close_run);
        opened = 1;
    }
    return &run;
}

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
    struct error e = {0};
    if (options & 4)
        history_add(path, recorded_run(), &e);
    snprintf(out, sizeof out, "%s/chart", fuzz_folder());
    mkdir(out, 0700);
    /* Removed first, so that the reader writes new files (see fuzz_write). */
    for (int i = 0; i < 2; ++i) {
        char chart[PATH_LEN + 32];
        snprintf(chart, sizeof chart, "%s/%s", out, i ? "history.tsv" : "variables.gp");
        remove(chart);
    }
    e = (struct error){0};
    history_chart_data(path, gpu, width, 0.02, out, &e);
    return 0;
}
