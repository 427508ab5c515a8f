#include "launches_csv.h"
#include "schema.h"

int launches_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &launches_csv, e);
}

void launches_csv_row(struct csv *c, const struct launch_row *r)
{
    csv_int(c, r->ordinal);
    csv_text(c, r->kernel);
    csv_text(c, r->mangled);
    csv_text(c, r->nvtx_path);
    csv_int(c, r->kernel_ordinal);
    for (int i = 0; i < 3; ++i)
        csv_int(c, r->grid[i]);
    for (int i = 0; i < 3; ++i)
        csv_int(c, r->block[i]);
    csv_int(c, r->dynamic_smem_bytes);
    csv_int(c, r->static_smem_bytes);
    csv_int(c, r->registers_per_thread);
    csv_uint(c, r->duration_ns);
    csv_int(c, r->selected);
    csv_text(c, r->job);
    csv_int(c, r->run);
    csv_end_row(c);
}
