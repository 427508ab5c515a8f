#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/paths.h"
#include "../results/schema.h"
#include "line_changes.h"

#define SHOWN 12

/* One count of one side: its key (variant, width, kernel, file, line, metric) and value. */
struct count {
    const char *field[6];
    double value;
};

static const enum lines_column key_columns[6] = {LINES_VARIANT, LINES_WIDTH, LINES_KERNEL,
                                                 LINES_FILE,    LINES_LINE,  LINES_METRIC};

static int by_key(const void *a, const void *b)
{
    const struct count *x = a, *y = b;
    for (int i = 0; i < 6; ++i) {
        int c = strcmp(x->field[i], y->field[i]);
        if (c)
            return c;
    }
    return 0;
}

static int read_counts(const struct csv_table *t, struct count **out, struct error *e)
{
    int columns[6], value;
    for (int i = 0; i < 6; ++i)
        if (csv_table_column(t, lines_csv.columns[key_columns[i]], &columns[i], e))
            return e->code;
    if (csv_table_column(t, lines_csv.columns[LINES_VALUE], &value, e))
        return e->code;
    if (!(*out = calloc((size_t)t->rows + 1, sizeof **out)))
        return error_set(e, EXIT_RUNTIME, "out of host memory");
    for (int row = 0; row < t->rows && !e->code; ++row) {
        for (int i = 0; i < 6; ++i)
            (*out)[row].field[i] = csv_table_text(t, row, columns[i]);
        csv_table_required_real(t, row, value, &(*out)[row].value, e);
    }
    qsort(*out, (size_t)t->rows, sizeof **out, by_key);
    return e->code;
}

static int is_excess(const char *metric)
{
    return strcmp(metric, "shared_excess_wavefronts") == 0 || strcmp(metric, "global_excess_sectors") == 0;
}

static void print_change(FILE *f, const struct count *k, double base, double head)
{
    const char *what = base == 0 ? "new" : head > base ? "more" : "fewer";
    fprintf(f, "  %s %s:%s %s W=%s: %s %.0f -> %.0f (%s)\n",
            is_excess(k->field[5]) && head > base ? "REGRESSION" : "changed", k->field[3], k->field[4], k->field[0],
            k->field[1], k->field[5], base, head, what);
}

static void write_change(struct csv *out, const struct count *k, double base, double head, const char *kind)
{
    csv_text(out, k->field[0]);
    csv_text(out, k->field[1]);
    csv_text(out, k->field[2]);
    csv_text(out, k->field[3]);
    csv_text(out, k->field[4]);
    csv_text(out, k->field[5]);
    csv_real(out, base);
    csv_real(out, head);
    csv_text(out, kind);
    csv_end_row(out);
}

/* One key present on either side; a missing side counts as zero (lines.csv leaves zeros out). */
static void one_change(const struct count *k, double base, double head, const char *kind, FILE *print,
                       struct csv *out, struct line_changes *r)
{
    int regression = is_excess(k->field[5]) && head > base;
    r->changed++;
    r->regressions += regression;
    if (print && (regression ? r->regressions : r->changed - r->regressions) <= SHOWN)
        print_change(print, k, base, head);
    if (out)
        write_change(out, k, base, head, kind);
}

static void merge(const struct count *b, int nb, const struct count *h, int nh, FILE *print, struct csv *out,
                  struct line_changes *r)
{
    int i = 0, j = 0;
    while (i < nb || j < nh) {
        int c = i == nb ? 1 : j == nh ? -1 : by_key(&b[i], &h[j]);
        if (c < 0)
            one_change(&b[i], b[i].value, 0.0, "gone", print, out, r), ++i;
        else if (c > 0)
            one_change(&h[j], 0.0, h[j].value, "new", print, out, r), ++j;
        else {
            if (b[i].value != h[j].value)
                one_change(&h[j], b[i].value, h[j].value, "changed", print, out, r);
            ++i, ++j;
        }
    }
}

static int open_side(const char *dir, struct csv_table *t, int *present, struct error *e)
{
    char path[PATH_JOINED(PATH_LEN)];
    snprintf(path, sizeof path, "%s/%s", dir, lines_csv.file);
    *present = access(path, F_OK) == 0;
    return *present ? csv_table_read(path, t, e) : 0;
}

int compare_line_changes(const char *base_dir, const char *head_dir, FILE *print, const char *out_dir,
                         struct line_changes *result, struct error *e)
{
    struct csv_table base = {0}, head = {0};
    struct count *b = NULL, *h = NULL;
    struct csv out;
    int has_base = 0, has_head = 0, writing = 0;
    *result = (struct line_changes){0};
    if (open_side(base_dir, &base, &has_base, e) == 0 && open_side(head_dir, &head, &has_head, e) == 0 && has_base &&
        has_head && read_counts(&base, &b, e) == 0 && read_counts(&head, &h, e) == 0 &&
        (!out_dir || (writing = schema_create(&out, out_dir, &compare_lines_csv, e) == 0))) {
        result->compared = 1;
        if (print)
            fprintf(print, "source lines (lines.csv):\n");
        merge(b, base.rows, h, head.rows, print, writing ? &out : NULL, result);
        if (print)
            fprintf(print, "  %d count(s) changed, %d more conflicts or wasted sectors on a line\n", result->changed,
                    result->regressions);
    }
    if (writing)
        csv_close(&out, e);
    free(b);
    free(h);
    if (has_base)
        csv_table_free(&base);
    if (has_head)
        csv_table_free(&head);
    return e->code;
}
