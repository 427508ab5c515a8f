/* The CSV table reader (csv_table_read) on any bytes, then every cell through the checked getters. */
#include "fuzz_support.h"

#include "../../harness/csv/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[PATH_LEN];
    struct csv_table t;
    struct error e = {0};
    fuzz_write(path, sizeof path, "table.csv", data, size);
    if (csv_table_read(path, &t, &e))
        return 0;
    int column;
    struct error lookup = {0};
    csv_table_column(&t, "width", &column, &lookup);
    csv_table_column_or_none(&t, "variant");
    for (int row = 0; row < t.rows; ++row)
        for (int c = 0; c < t.columns; ++c) {
            struct error cell = {0};
            double real;
            int whole;
            (void)csv_table_text(&t, row, c);
            csv_table_real(&t, row, c, &real, &cell);
            csv_table_int(&t, row, c, &whole, &cell);
            csv_table_required_real(&t, row, c, &real, &cell);
        }
    csv_table_free(&t);
    return 0;
}
