#include "schema.h"
#include "validate_csv.h"

int validate_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &validate_csv, e);
}

void validate_csv_row(struct csv *c, const struct validate_row *r)
{
    csv_text(c, r->kernel);
    csv_text(c, r->parameter);
    csv_text(c, r->metric);
    csv_real(c, r->expected);
    csv_real(c, r->lower);
    csv_real(c, r->upper);
    csv_real(c, r->measured);
    csv_text(c, r->pass ? "pass" : "fail");
    csv_text(c, r->expected_cause);
    csv_text(c, r->found_cause);
    csv_real(c, r->estimated_gain_pct);
    csv_real(c, r->measured_gain_pct);
    csv_end_row(c);
}
