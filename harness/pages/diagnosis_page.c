#include <stdio.h>

#include "../common/paths.h"
#include "../results/schema.h"
#include "cells.h"
#include "diagnosis_page.h"

int report_write_diagnosis(const struct report_model *m, const char *dir, int *rows, struct error *e)
{
    const struct csv_table *s = &m->r->summary;
    int limiter = csv_table_column_or_none(s, summary_csv.columns[SUMMARY_LIMITER]);
    int evidence = csv_table_column_or_none(s, summary_csv.columns[SUMMARY_EVIDENCE]);
    int width = m->width[m->widths - 1];
    char path[PATH_JOINED(PATH_IN_FOLDER_LEN)];
    *rows = 0;
    if (limiter < 0 || evidence < 0)
        return 0;
    for (int v = 0; v < m->variants; ++v) {
        int row = results_summary_row(m->r, m->variant[v], width);
        *rows += row >= 0 && csv_table_text(s, row, limiter)[0] != '\0';
    }
    if (*rows == 0)
        return 0;
    FILE *f = report_open(dir, "diagnosis.tsv", path, sizeof path, e);
    if (!f)
        return e->code;
    fputs("0\tvariant\tlimiter\tevidence\n", f);
    for (int v = 0; v < m->variants; ++v) {
        int row = results_summary_row(m->r, m->variant[v], width);
        if (row < 0 || csv_table_text(s, row, limiter)[0] == '\0')
            continue;
        fprintf(f, "%d\t", v + 1);
        report_put_cell(f, m->variant[v], 0);
        report_put_cell(f, csv_table_text(s, row, limiter), 0);
        report_put_cell(f, csv_table_text(s, row, evidence), 1);
    }
    return report_close(f, path, e);
}
