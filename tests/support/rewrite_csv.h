/* Rewriting a CSV file of a fixture copy in a test, one row at a time. */
#ifndef MEMSCOPE_REWRITE_CSV_H
#define MEMSCOPE_REWRITE_CSV_H

#include <stdio.h>
#include <string.h>

#include "../../harness/csv/writer.h"
#include "../../harness/csv/reader.h"

/* Rewrites dir/file, letting edit change the fields of each row. */
static void rewrite_csv(const char *dir, const char *file, void (*edit)(const struct csv_table *, int row, char **fields))
{
    struct csv_table t;
    struct error e = {0};
    char path[512], header[4096] = "";
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if (csv_table_read(path, &t, &e))
        fail_msg("%s", e.message);
    for (int c = 0; c < t.columns; ++c)
        snprintf(header + strlen(header), sizeof header - strlen(header), "%s%s", c ? "," : "", t.header[c]);
    struct csv out;
    assert_int_equal(csv_create(&out, dir, file, header, &e), 0);
    for (int row = 0; row < t.rows; ++row) {
        char *fields[64], buffers[64][256];
        for (int c = 0; c < t.columns; ++c) {
            snprintf(buffers[c], sizeof buffers[c], "%s", t.cells[row][c]);
            fields[c] = buffers[c];
        }
        edit(&t, row, fields);
        for (int c = 0; c < t.columns; ++c)
            csv_text(&out, fields[c]);
        csv_end_row(&out);
    }
    assert_int_equal(csv_close(&out, &e), 0);
    csv_table_free(&t);
}

#endif
