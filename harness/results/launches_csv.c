#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/paths.h"
#include "../csv/reader.h"
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
    csv_text(c, r->not_replayed ? r->not_replayed : "");
    csv_uint(c, r->start_ns);
    csv_end_row(c);
}

int launches_csv_selected_ms(const char *dir, double **ms, size_t *n, struct error *e)
{
    char path[PATH_JOINED(PATH_LEN)];
    struct csv_table t;
    int selected, duration, kept_back;
    *ms = NULL;
    *n = 0;
    snprintf(path, sizeof path, "%s/%s", dir, launches_csv.file);
    if (csv_table_read(path, &t, e))
        return e->code;
    if (schema_column(&t, &launches_csv, LAUNCHES_SELECTED, &selected, e) == 0 &&
        schema_column(&t, &launches_csv, LAUNCHES_DURATION_NS, &duration, e) == 0 &&
        !(*ms = calloc((size_t)t.rows + 1, sizeof **ms)))
        error_set(e, EXIT_RUNTIME, "out of memory");
    kept_back = schema_column_or_none(&t, &launches_csv, LAUNCHES_NOT_REPLAYED); /* none before issue 41 */
    for (int row = 0; row < t.rows && !e->code; ++row) {
        double ns;
        if (strcmp(csv_table_text(&t, row, selected), "1") == 0 && !(kept_back >= 0 && *csv_table_text(&t, row, kept_back)) &&
            csv_table_required_real(&t, row, duration, &ns, e) == 0)
            (*ms)[(*n)++] = ns > 0 ? ns / 1e6 : 1e-6;
    }
    csv_table_free(&t);
    if (e->code) {
        free(*ms);
        *ms = NULL;
        *n = 0;
    }
    return e->code;
}
