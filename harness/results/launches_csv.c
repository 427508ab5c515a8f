#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/paths.h"
#include "../csv/reader.h"
#include "launches_csv.h"
#include "schema.h"

bool not_replayed_is_collective(const char *why)
{
    return *why && !not_replayed_is_kept_back(why);
}

bool not_replayed_is_kept_back(const char *why)
{
    return strcmp(why, NOT_REPLAYED_COLLECTIVE_RUNNING) == 0 || strcmp(why, NOT_REPLAYED_CAPTURING) == 0;
}

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
    csv_uint(c, r->graph);
    csv_end_row(c);
}

static int append(struct selected_launches *s, const struct csv_table *t, int row, const int *col, struct error *e)
{
    double ns;
    struct selected_launch l = {0};
    if (csv_table_required_real(t, row, col[LAUNCHES_DURATION_NS], &ns, e))
        return e->code;
    for (int i = 0; i < 3; ++i)
        if (csv_table_int(t, row, col[LAUNCHES_GRID_X + i], &l.grid[i], e) ||
            csv_table_int(t, row, col[LAUNCHES_BLOCK_X + i], &l.block[i], e))
            return e->code;
    l.ms = ns > 0 ? ns / 1e6 : 1e-6;
    if (grow_for_one_more((void **)&s->at, s->n, sizeof *s->at) != 0 ||
        !(l.mangled = strdup(csv_table_text(t, row, col[LAUNCHES_MANGLED]))))
        return error_set(e, EXIT_RUNTIME, "out of memory");
    s->at[s->n++] = l;
    return 0;
}

int launches_csv_selected(const char *dir, struct selected_launches *s, struct error *e)
{
    char path[PATH_JOINED(PATH_LEN)];
    struct csv_table t;
    int col[LAUNCHES_COLUMNS];
    snprintf(path, sizeof path, "%s/%s", dir, launches_csv.file);
    if (csv_table_read(path, &t, e))
        return e->code;
    schema_columns_before(&t, &launches_csv, LAUNCHES_SELECTED + 1, col, e);
    col[LAUNCHES_NOT_REPLAYED] = schema_column_or_none(&t, &launches_csv, LAUNCHES_NOT_REPLAYED); /* since issue 41 */
    for (int row = 0; row < t.rows && !e->code; ++row) {
        bool collective = col[LAUNCHES_NOT_REPLAYED] >= 0 &&
                          not_replayed_is_collective(csv_table_text(&t, row, col[LAUNCHES_NOT_REPLAYED]));
        if (strcmp(csv_table_text(&t, row, col[LAUNCHES_SELECTED]), "1") == 0 && !collective)
            append(s, &t, row, col, e);
    }
    csv_table_free(&t);
    return e->code;
}

void selected_launches_free(struct selected_launches *s)
{
    for (size_t i = 0; i < s->n; ++i)
        free(s->at[i].mangled);
    free(s->at);
    *s = (struct selected_launches){0};
}
