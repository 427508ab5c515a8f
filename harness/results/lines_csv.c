#include "lines_csv.h"
#include "schema.h"

int lines_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &lines_csv, e);
}

void lines_csv_on_stream(struct csv *c, FILE *stream, const char *name)
{
    schema_on_stream(c, stream, name, &lines_csv, 1);
}

void lines_csv_row(struct csv *c, const struct line_row *r)
{
    csv_text(c, r->variant);
    csv_text(c, r->precision);
    csv_int(c, product_shape_width(r->shape));
    csv_text(c, r->kernel);
    csv_text(c, r->file);
    csv_int(c, r->line);
    csv_text(c, r->source);
    csv_text(c, r->opcodes);
    csv_text(c, r->metric);
    csv_real(c, r->value);
    csv_shape(c, r->shape);
    csv_end_row(c);
}
