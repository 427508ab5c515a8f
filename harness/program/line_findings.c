#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/paths.h"
#include "../results/schema.h"
#include "line_findings.h"

/* One source line's counts, gathered from its rows of lines.csv. */
struct line_gather {
    struct line_counts counts;
    char file[PATH_LEN];
};

static double *line_count_of(struct line_counts *l, const char *metric)
{
    static const struct {
        const char *name;
        size_t offset;
    } counts[] = {{"global_ld_sectors", offsetof(struct line_counts, global_ld_sectors)},
                  {"global_st_sectors", offsetof(struct line_counts, global_st_sectors)},
                  {"global_excess_sectors", offsetof(struct line_counts, global_excess_sectors)},
                  {"shared_ld_wavefronts", offsetof(struct line_counts, shared_ld_wavefronts)},
                  {"shared_st_wavefronts", offsetof(struct line_counts, shared_st_wavefronts)},
                  {"shared_excess_wavefronts", offsetof(struct line_counts, shared_excess_wavefronts)},
                  {"predicated_off_lanes", offsetof(struct line_counts, predicated_off_lanes)},
                  {"conversions", offsetof(struct line_counts, conversions)}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i)
        if (strcmp(metric, counts[i].name) == 0)
            return (double *)((char *)l + counts[i].offset);
    return NULL;
}

int finding_lines_read(const struct csv_table *t, const char *variant, struct product_shape shape,
                       struct finding_lines *out, double *wavefronts, struct error *e)
{
    static const int ids[] = {LINES_VARIANT, LINES_FILE, LINES_LINE, LINES_METRIC, LINES_VALUE};
    int col[6], n = 0;
    struct shape_columns shape_at;
    struct line_gather *gathered = NULL;
    finding_lines_init(out);
    *wavefronts = NAN;
    for (int i = 0; t && i < 5; ++i)
        if (schema_column(t, &lines_csv, ids[i], &col[i], e))
            return e->code;
    if (t && shape_columns_find(t, &shape_at, e))
        return e->code;
    for (int row = 0; t && row < t->rows && !e->code; ++row) {
        int line, g = 0;
        struct product_shape at;
        double value, *count;
        if (strcmp(csv_table_text(t, row, col[0]), variant) || shape_columns_read(t, row, &shape_at, &at, e) ||
            !product_shape_equal(at, shape) || csv_table_int(t, row, col[2], &line, e) ||
            csv_table_real(t, row, col[4], &value, e))
            continue;
        const char *file = csv_table_text(t, row, col[1]), *metric = csv_table_text(t, row, col[3]);
        if (strcmp(metric, "shared_wavefronts") == 0) /* none such: not counted, NAN, not 0 */
            *wavefronts = (isnan(*wavefronts) ? 0.0 : *wavefronts) + value;
        while (g < n && (gathered[g].counts.line != line || strcmp(gathered[g].file, file)))
            ++g;
        if (g == n) {
            struct line_gather *grown = realloc(gathered, (size_t)(n + 1) * sizeof *gathered);
            if (!grown) {
                error_set(e, EXIT_RUNTIME, "out of memory for the lines of %s", variant);
                break;
            }
            gathered = grown;
            memset(&gathered[n], 0, sizeof gathered[n]);
            snprintf(gathered[n].file, sizeof gathered[n].file, "%s", file);
            gathered[n++].counts.line = line;
        }
        if ((count = line_count_of(&gathered[g].counts, metric)) != NULL)
            *count += value;
    }
    for (int g = 0; g < n && !e->code; ++g) {
        gathered[g].counts.file = gathered[g].file; /* not before: the array moved as it grew */
        finding_lines_add(out, &gathered[g].counts);
    }
    free(gathered);
    return e->code;
}
