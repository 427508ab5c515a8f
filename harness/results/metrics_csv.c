#include "metrics_csv.h"
#include "schema.h"

int metrics_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &metrics_csv, e);
}

void metrics_csv_on_stream(struct csv *c, FILE *stream, const char *name)
{
    schema_on_stream(c, stream, name, &metrics_csv, 1);
}

void metrics_csv_row(struct csv *c, const struct metric_row *r)
{
    csv_text(c, r->variant);
    csv_text(c, r->precision);
    csv_int(c, product_shape_width(r->shape));
    csv_text(c, r->kernel);
    csv_text(c, r->metric);
    csv_real(c, r->value);
    csv_text(c, r->unit);
    csv_shape(c, r->shape);
    csv_end_row(c);
}
