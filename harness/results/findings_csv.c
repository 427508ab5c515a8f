#include <string.h>

#include "findings_csv.h"
#include "schema.h"

int findings_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &findings_csv, e);
}

void findings_csv_row(struct csv *c, const struct finding_row *r)
{
    csv_text(c, r->variant);
    csv_text(c, r->precision);
    csv_int(c, product_shape_width(r->shape));
    csv_text(c, r->kernel);
    csv_int(c, r->rank);
    csv_text(c, r->cause);
    csv_text(c, r->scope);
    csv_real(c, r->estimated_gain_pct);
    csv_text(c, r->evidence);
    csv_text(c, r->line);
    csv_shape(c, r->shape);
    csv_end_row(c);
}

int findings_csv_read_row(const struct csv_table *t, int row, struct finding_row *out, struct error *e)
{
    int col[FINDINGS_COLUMNS];
    struct shape_columns shape;
    if (schema_columns_before(t, &findings_csv, FINDINGS_ROWS, col, e) || shape_columns_find(t, &shape, e))
        return e->code;
    memset(out, 0, sizeof *out);
    out->variant = csv_table_text(t, row, col[FINDINGS_VARIANT]);
    out->precision = csv_table_text(t, row, col[FINDINGS_PRECISION]);
    out->kernel = csv_table_text(t, row, col[FINDINGS_KERNEL]);
    out->cause = csv_table_text(t, row, col[FINDINGS_CAUSE]);
    out->scope = csv_table_text(t, row, col[FINDINGS_SCOPE]);
    out->evidence = csv_table_text(t, row, col[FINDINGS_EVIDENCE]);
    out->line = csv_table_text(t, row, col[FINDINGS_LINE]);
    if (shape_columns_read(t, row, &shape, &out->shape, e) || csv_table_int(t, row, col[FINDINGS_RANK], &out->rank, e))
        return e->code;
    return csv_table_real(t, row, col[FINDINGS_ESTIMATED_GAIN_PCT], &out->estimated_gain_pct, e);
}

int findings_csv_first(const struct csv_table *t, const char *variant, struct product_shape shape,
                       struct finding_row *out, int *found, struct error *e)
{
    *found = 0;
    for (int row = 0; row < t->rows && !*found; ++row) {
        if (findings_csv_read_row(t, row, out, e))
            return e->code;
        *found = out->rank == 1 && product_shape_equal(out->shape, shape) && strcmp(out->variant, variant) == 0;
    }
    return 0;
}
