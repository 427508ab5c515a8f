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

static void row(struct csv *c, const char *variant, const char *precision, int width, const char *kernel,
                const char *metric, double value, const char *unit)
{
    csv_text(c, variant);
    csv_text(c, precision);
    csv_int(c, width);
    csv_text(c, kernel);
    csv_text(c, metric);
    csv_real(c, value);
    csv_text(c, unit);
    csv_end_row(c);
}

void metrics_csv_rows(struct csv *c, const char *variant, const char *precision, int width, const struct profile *p)
{
    struct derived_metric derived[MAX_DERIVED];
    for (int k = 0; k < p->n_kernels; ++k) {
        const struct kernel_profile *kp = &p->kernels[k];
        for (int i = 0; i < p->n_metrics; ++i)
            row(c, variant, precision, width, kp->kernel, p->names[i], kp->values[i], p->units[i]);
        int n = metrics_derive(p->names, kp->values, p->n_metrics, derived);
        for (int i = 0; i < n; ++i)
            row(c, variant, precision, width, kp->kernel, derived[i].name, derived[i].value, derived[i].unit);
    }
}
