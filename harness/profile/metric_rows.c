#include "../results/metrics_csv.h"
#include "metric_rows.h"

void profile_write_kernel_rows(struct csv *c, const char *variant, const char *precision, struct product_shape shape,
                               const char *kernel, const struct profile *p, int k)
{
    struct derived_metric derived[MAX_DERIVED];
    const struct kernel_profile *kp = &p->kernels[k];
    for (int i = 0; i < p->n_metrics; ++i)
        metrics_csv_row(
            c, &(struct metric_row){variant, precision, shape, kernel, p->names[i], kp->values[i], p->units[i]});
    int n = metrics_derive(p->names, kp->values, p->n_metrics, derived);
    for (int i = 0; i < n; ++i)
        metrics_csv_row(c, &(struct metric_row){variant, precision, shape, kernel, derived[i].name, derived[i].value,
                                                derived[i].unit});
}

void profile_write_rows(struct csv *c, const char *variant, const char *precision, struct product_shape shape,
                        const struct profile *p)
{
    for (int k = 0; k < p->n_kernels; ++k)
        profile_write_kernel_rows(c, variant, precision, shape, p->kernels[k].kernel, p, k);
}
