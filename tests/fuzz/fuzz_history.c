/*
 * The CSV history's reader, as memscope-history migrate uses it (history_read_csv: the header, every number
 * checked, then the rows in one transaction): the input is a history CSV after one options byte, migrated into a
 * new SQLite history in memory. Bit 2 of the options first records a small run there, so that the CSV's runs may
 * be recorded already; then what was migrated is read back: its steps, for the GPU of the last run (bit 0: the
 * H100 named) at every width (bit 1: width 1024 only), and its export.
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

/* Where the read-back goes: only that it is read matters. */
static FILE *nowhere(void)
{
    static FILE *null;
    if (!null && !(null = fopen("/dev/null", "w"))) {
        perror("fuzz_history: /dev/null");
        abort();
    }
    return null;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[PATH_LEN];
    uint8_t options = size ? data[0] : 0;
    struct history_query query = {.gpu = options & 1 ? "NVIDIA H100 80GB HBM3" : NULL,
                                  .shape = options & 2 ? product_shape_square(1024) : PRODUCT_SHAPE_NONE,
                                  .floor = 0.02};
    if (size) {
        ++data;
        --size;
    }
    fuzz_write(path, sizeof path, "history.csv", data, size);
    struct store *s;
    struct error e = {0};
    if (history_open(":memory:", 1, &s, &e)) {
        fprintf(stderr, "fuzz_history: %s\n", e.message);
        abort();
    }
    int added, present;
    struct csv_table t;
    if (options & 4)
        history_add_runs(s, recorded_run(), 1, &added, &e);
    e = (struct error){0};
    if (!history_read_csv(path, &t, &e)) {
        if (!history_migrate_csv(s, &t, &added, &present, &e)) {
            history_print_steps(s, &query, nowhere(), &e);
            history_export(s, nowhere(), &e);
        }
        csv_table_free(&t);
    }
    store_close(s);
    return 0;
}
