#include "schema.h"
#include "stalls_csv.h"

int stalls_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &stalls_csv, e);
}

void stalls_csv_row(struct csv *c, const struct stall_row *r)
{
    csv_text(c, r->variant);
    csv_text(c, r->precision);
    csv_int(c, product_shape_width(r->shape));
    csv_text(c, r->kernel);
    csv_text(c, r->file);
    csv_int(c, r->line);
    csv_text(c, r->source);
    csv_text(c, r->reason);
    csv_uint(c, r->samples);
    csv_shape(c, r->shape);
    csv_end_row(c);
}
