#include "instructions_csv.h"
#include "schema.h"

int instructions_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &instructions_csv, e);
}

void instructions_csv_on_stream(struct csv *c, FILE *stream, const char *name)
{
    schema_on_stream(c, stream, name, &instructions_csv, 1);
}

void instructions_csv_row(struct csv *c, const struct instruction_row *r)
{
    csv_text(c, r->variant);
    csv_text(c, r->precision);
    csv_int(c, product_shape_width(r->shape));
    csv_text(c, r->kernel);
    csv_uint(c, r->offset);
    csv_text(c, r->file);
    csv_int(c, r->line);
    csv_text(c, r->opcode);
    for (int m = INSTRUCTIONS_INST_EXECUTED; m < INSTRUCTIONS_ROWS; ++m) /* the line metrics, then the shape */
        csv_real(c, r->values[m - INSTRUCTIONS_INST_EXECUTED]);
    csv_shape(c, r->shape);
    csv_end_row(c);
}
