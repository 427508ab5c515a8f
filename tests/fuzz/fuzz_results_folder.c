/*
 * The results-folder loader (results_folder_open, with its cross-checks of
 * summary, samples and metrics) on a folder made from the input: split at
 * byte 0x1E (record separator) into environment.csv, summary.csv,
 * samples.csv, metrics.csv and validate/validate.csv, in that order. A piece
 * the input does not reach is a file the folder lacks. An opened folder is
 * also queried as the report and the comparison do.
 */
#include "fuzz_support.h"

#include "../../harness/results/folder_reader.h"

#define SEPARATOR 0x1E

static const char *const files[] = {"environment.csv", "summary.csv", "samples.csv", "metrics.csv",
                                    "validate/validate.csv"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[PATH_LEN];
    const uint8_t *rest = data, *end = data + size;
    snprintf(path, sizeof path, "%s/validate", fuzz_folder());
    mkdir(path, 0700);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        size_t piece_size;
        const uint8_t *piece = fuzz_piece(&rest, end, SEPARATOR, &piece_size);
        if (piece) {
            fuzz_write(path, sizeof path, files[i], piece, piece_size);
        } else {
            snprintf(path, sizeof path, "%s/%s", fuzz_folder(), files[i]);
            remove(path);
        }
    }
    struct results_folder r;
    struct error e = {0};
    if (results_folder_open(fuzz_folder(), &r, &e))
        return 0;
    double value;
    struct error query = {0};
    results_environment(&r, "gpu_name");
    results_environment_number(&r, "sm_count", &value, &query);
    for (int row = 0; row < r.summary.rows; ++row) {
        const char *variant = csv_table_text(&r.summary, row, r.col_variant);
        struct error metric = {0};
        results_summary_row(&r, variant, r.summary_shape[row]);
        results_metric_sum(&r, variant, r.summary_shape[row], "dram__bytes_read.sum", &value, &metric);
    }
    results_folder_close(&r);
    return 0;
}
