#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../results/folder_reader.h"
#include "../results/product_shape.h"
#include "../results/schema.h"
#include "line_changes.h"

#define SHOWN 12
#define MAX_KERNELS 4096

enum key_text { VARIANT, KERNEL, FILE_NAME, LINE, METRIC, KEY_TEXTS };

/* One count of one side: its key (variant, shape, kernel, file, line, metric) and value. */
struct count {
    const char *field[KEY_TEXTS]; /* the key but its shape */
    struct product_shape shape;
    double value;
};

static const enum lines_column key_columns[KEY_TEXTS] = {LINES_VARIANT, LINES_KERNEL, LINES_FILE, LINES_LINE,
                                                         LINES_METRIC};

/* By variant, then shape, then the rest of the key. */
static int by_key(const void *a, const void *b)
{
    const struct count *x = a, *y = b;
    int c = strcmp(x->field[VARIANT], y->field[VARIANT]);
    if (!c)
        c = product_shape_compare(x->shape, y->shape);
    for (int i = KERNEL; !c && i < KEY_TEXTS; ++i)
        c = strcmp(x->field[i], y->field[i]);
    return c;
}

/* A row's key and value; its shape as product_shape.h reads it (an older lines.csv has squares of its widths). */
static int read_count(const struct csv_table *t, int row, const int *columns, const struct shape_columns *shape,
                      int value, struct count *c, struct error *e)
{
    for (int i = 0; i < KEY_TEXTS; ++i)
        c->field[i] = csv_table_text(t, row, columns[i]);
    if (shape_columns_read(t, row, shape, &c->shape, e))
        return e->code;
    return csv_table_required_real(t, row, value, &c->value, e);
}

static int read_counts(const struct csv_table *t, struct count **out, struct error *e)
{
    int columns[KEY_TEXTS], value;
    struct shape_columns shape;
    for (int i = 0; i < KEY_TEXTS; ++i)
        if (csv_table_column(t, lines_csv.columns[key_columns[i]], &columns[i], e))
            return e->code;
    if (csv_table_column(t, lines_csv.columns[LINES_VALUE], &value, e) || shape_columns_find(t, &shape, e))
        return e->code;
    if (!(*out = calloc((size_t)t->rows + 1, sizeof **out)))
        return error_set(e, EXIT_RUNTIME, "out of host memory");
    for (int row = 0; row < t->rows; ++row)
        if (read_count(t, row, columns, &shape, value, &(*out)[row], e))
            return e->code; /* before sorting: the rows after this one are not filled in */
    qsort(*out, (size_t)t->rows, sizeof **out, by_key);
    return 0;
}

static int is_excess(const char *metric)
{
    return strcmp(metric, "shared_excess_wavefronts") == 0 || strcmp(metric, "global_excess_sectors") == 0;
}

/* A kernel's excess wavefronts or sectors on each side, summed over its lines: what decides a regression, since
 * an edit that moves a line moves its counts to another line number without changing the kernel. */
struct kernel_excess {
    const char *variant, *kernel, *metric;
    struct product_shape shape;
    double base, head;
};

struct excess_table {
    int n;
    struct kernel_excess k[MAX_KERNELS];
};

static struct kernel_excess *kernel_of(struct excess_table *t, const struct count *c)
{
    for (int i = 0; i < t->n; ++i)
        if (strcmp(t->k[i].kernel, c->field[KERNEL]) == 0 && strcmp(t->k[i].metric, c->field[METRIC]) == 0 &&
            product_shape_equal(t->k[i].shape, c->shape) && strcmp(t->k[i].variant, c->field[VARIANT]) == 0)
            return &t->k[i];
    if (t->n == MAX_KERNELS)
        return NULL;
    t->k[t->n] = (struct kernel_excess){c->field[VARIANT], c->field[KERNEL], c->field[METRIC], c->shape, 0, 0};
    return &t->k[t->n++];
}

static int add_excess(struct excess_table *t, const struct count *c, int head, struct error *e)
{
    if (!is_excess(c->field[METRIC]))
        return 0;
    struct kernel_excess *k = kernel_of(t, c);
    if (!k)
        return error_set(e, EXIT_USAGE, "more than %d kernels in lines.csv", MAX_KERNELS);
    *(head ? &k->head : &k->base) += c->value;
    return 0;
}

static int grew(struct excess_table *t, const struct count *c)
{
    struct kernel_excess *k = is_excess(c->field[METRIC]) ? kernel_of(t, c) : NULL;
    return k && k->head > k->base;
}

static void print_change(FILE *f, const struct count *k, double base, double head, int regression)
{
    const char *what = base == 0 ? "new" : head == 0 ? "gone" : head > base ? "more" : "fewer";
    bool program = product_shape_equal(k->shape, PRODUCT_SHAPE_NONE); /* a program's job: no size to name */
    char label[PRODUCT_SHAPE_LEN];
    fprintf(f, "  %s %s:%s %s%s%s: %s %.0f -> %.0f (%s)\n", regression ? "REGRESSION" : "changed",
            k->field[FILE_NAME], k->field[LINE], k->field[VARIANT], program ? "" : " ",
            program ? "" : product_shape_label(k->shape, label), k->field[METRIC], base, head, what);
}

static void write_change(struct csv *out, const struct count *k, double base, double head, const char *kind)
{
    csv_text(out, k->field[VARIANT]);
    csv_int(out, product_shape_width(k->shape));
    for (int i = KERNEL; i < KEY_TEXTS; ++i)
        csv_text(out, k->field[i]);
    csv_real(out, base);
    csv_real(out, head);
    csv_text(out, kind);
    csv_shape(out, k->shape);
    csv_end_row(out);
}

struct merge {
    FILE *print;
    struct csv *out;
    struct excess_table *excess;
    struct line_changes *result;
    int shown_regressions, shown_changes;
};

/* A line is a regression when its excess grew and so did its kernel's. */
static void one_change(struct merge *m, const struct count *k, double base, double head, const char *kind)
{
    int regression = head > base && grew(m->excess, k);
    int *shown = regression ? &m->shown_regressions : &m->shown_changes;
    m->result->changed++;
    m->result->regressions += regression;
    if (m->print && ++*shown <= SHOWN)
        print_change(m->print, k, base, head, regression);
    if (m->out)
        write_change(m->out, k, base, head, kind);
}

/* Both sides sorted by key; a key missing on a side counts as zero (lines.csv leaves zeros out). */
static void merge_sides(struct merge *m, const struct count *b, int nb, const struct count *h, int nh)
{
    int i = 0, j = 0;
    while (i < nb || j < nh) {
        int c = i == nb ? 1 : j == nh ? -1 : by_key(&b[i], &h[j]);
        if (c < 0)
            one_change(m, &b[i], b[i].value, 0.0, "gone"), ++i;
        else if (c > 0)
            one_change(m, &h[j], 0.0, h[j].value, "new"), ++j;
        else {
            if (b[i].value != h[j].value)
                one_change(m, &h[j], b[i].value, h[j].value, "changed");
            ++i, ++j;
        }
    }
}

static int sum_excess(struct excess_table *t, const struct count *b, int nb, const struct count *h, int nh,
                      struct error *e)
{
    for (int i = 0; i < nb && !e->code; ++i)
        add_excess(t, &b[i], 0, e);
    for (int j = 0; j < nh && !e->code; ++j)
        add_excess(t, &h[j], 1, e);
    return e->code;
}

static int compare_tables(const struct csv_table *base, const struct csv_table *head, FILE *print,
                          const char *out_dir, struct line_changes *result, struct error *e)
{
    static struct excess_table excess;
    struct count *b = NULL, *h = NULL;
    struct csv out;
    int writing = 0;
    excess.n = 0;
    if (read_counts(base, &b, e) == 0 && read_counts(head, &h, e) == 0 &&
        sum_excess(&excess, b, base->rows, h, head->rows, e) == 0 &&
        (!out_dir || (writing = schema_create(&out, out_dir, &compare_lines_csv, e) == 0))) {
        struct merge m = {print, writing ? &out : NULL, &excess, result, 0, 0};
        result->compared = 1;
        if (print)
            fprintf(print, "source lines (lines.csv):\n");
        merge_sides(&m, b, base->rows, h, head->rows);
        if (print)
            fprintf(print, "  %d count(s) changed; %d line(s) with more conflicts or wasted sectors in a kernel that has more\n",
                    result->changed, result->regressions);
    }
    if (writing)
        csv_close(&out, e);
    free(b);
    free(h);
    return e->code;
}

int compare_line_changes(const char *base_dir, const char *head_dir, FILE *print, const char *out_dir,
                         struct line_changes *result, struct error *e)
{
    struct csv_table base = {0}, head = {0};
    int has_base = 0, has_head = 0;
    *result = (struct line_changes){0};
    if (results_read_optional(base_dir, &lines_csv, &base, &has_base, e) == 0 &&
        results_read_optional(head_dir, &lines_csv, &head, &has_head, e) == 0) {
        if (has_base && has_head)
            compare_tables(&base, &head, print, out_dir, result, e);
        else if (print && (has_base || has_head))
            fprintf(print, "source lines: not compared, %s has no lines.csv (run it with --metric-groups all)\n",
                    has_base ? head_dir : base_dir);
    }
    if (has_base)
        csv_table_free(&base);
    if (has_head)
        csv_table_free(&head);
    return e->code;
}
