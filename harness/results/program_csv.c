#include "program_csv.h"
#include "schema.h"

int kernels_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &kernels_csv, e);
}

void kernels_csv_row(struct csv *c, const struct kernel_row *r)
{
    csv_text(c, r->kernel);
    csv_text(c, r->nvtx_range);
    csv_uint(c, r->launches);
    csv_real(c, r->share_pct);
    csv_real(c, r->total_ms);
    csv_real(c, r->mean_ms);
    csv_real(c, r->median_ms);
    csv_real(c, r->min_ms);
    csv_real(c, r->max_ms);
    csv_real(c, r->stdev_ms);
    csv_int(c, r->processes);
    csv_text(c, r->profiled_job);
    csv_text(c, r->status);
    csv_uint(c, r->autotuning_launches);
    csv_real(c, r->autotuning_ms);
    csv_end_row(c);
}

int collectives_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &collectives_csv, e);
}

void collectives_csv_row(struct csv *c, const struct collective_row *r)
{
    csv_int(c, r->collective);
    csv_text(c, r->kernel);
    csv_text(c, r->part);
    csv_real(c, r->start_ms);
    csv_real(c, r->duration_ms);
    csv_real(c, r->wait_ms);
    csv_real(c, r->transfer_ms);
    csv_text(c, r->last_arrival);
    csv_int(c, r->replays_before);
    csv_end_row(c);
}
