/*
 * findings.csv: each profiled kernel's findings, ranked (columns: schema.h; the rules: harness/diagnose/findings.h).
 * The run and memscope-profile fill one row struct per finding and hand it here; the report reads the rows back
 * here too. A folder written before issue 40 has no findings.csv: its readers say "not collected".
 */
#ifndef MEMSCOPE_FINDINGS_CSV_H
#define MEMSCOPE_FINDINGS_CSV_H

#include "../csv/reader.h"
#include "../csv/writer.h"
#include "product_shape.h"

/* One finding of one kernel. scope "global" or "local"; estimated_gain_pct an estimate (the rule's formula); line ""
 * where no line is known. Read back, the texts point into the table. */
struct finding_row {
    const char *variant, *precision;
    struct product_shape shape;
    const char *kernel;
    int rank; /* from 1 */
    const char *cause, *scope;
    double estimated_gain_pct;
    const char *evidence, *line;
};

int findings_csv_create(struct csv *c, const char *dir, struct error *e);
void findings_csv_row(struct csv *c, const struct finding_row *r);

/* Row row of a findings.csv read as a table (its columns looked up by name). */
int findings_csv_read_row(const struct csv_table *t, int row, struct finding_row *out, struct error *e);
/* The first finding (rank 1) of variant at shape: *found 0 where the table has none for it. */
int findings_csv_first(const struct csv_table *t, const char *variant, struct product_shape shape,
                       struct finding_row *out, int *found, struct error *e);

#endif
