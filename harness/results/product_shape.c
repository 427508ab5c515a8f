#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "product_shape.h"

struct product_shape product_shape_square(int width)
{
    return (struct product_shape){width, width, width};
}

int product_shape_width(struct product_shape s)
{
    return s.rows == s.cols && s.cols == s.inner ? s.rows : 0;
}

bool product_shape_whole(struct product_shape s)
{
    bool none = s.rows == 0 && s.cols == 0 && s.inner == 0;
    return none || (s.rows > 0 && s.cols > 0 && s.inner > 0);
}

bool product_shape_equal(struct product_shape a, struct product_shape b)
{
    return a.rows == b.rows && a.cols == b.cols && a.inner == b.inner;
}

static int order(double a, double b)
{
    return (a > b) - (a < b);
}

/* The work in double: three extents a file may hold overflow any integer product. */
int product_shape_compare(struct product_shape a, struct product_shape b)
{
    int by_work = order((double)a.rows * a.cols * a.inner, (double)b.rows * b.cols * b.inner);
    if (by_work)
        return by_work;
    return a.rows != b.rows   ? order(a.rows, b.rows)
           : a.cols != b.cols ? order(a.cols, b.cols)
                              : order(a.inner, b.inner);
}

int product_shapes_insert(struct product_shape *shapes, int *n, int most, struct product_shape s)
{
    int at = 0;
    while (at < *n && product_shape_compare(shapes[at], s) < 0)
        ++at;
    if (at < *n && product_shape_equal(shapes[at], s))
        return 0;
    if (*n == most)
        return -1;
    memmove(shapes + at + 1, shapes + at, (size_t)(*n - at) * sizeof *shapes);
    shapes[at] = s;
    ++*n;
    return 0;
}

void product_shape_extents(struct product_shape s, char out[3][16])
{
    snprintf(out[0], 16, "%d", s.rows);
    snprintf(out[1], 16, "%d", s.cols);
    snprintf(out[2], 16, "%d", s.inner);
}

const char *product_shape_text(struct product_shape s, char out[PRODUCT_SHAPE_LEN])
{
    int width = product_shape_width(s);
    if (width || s.rows == 0)
        snprintf(out, PRODUCT_SHAPE_LEN, "%d", width);
    else
        snprintf(out, PRODUCT_SHAPE_LEN, "%dx%dx%d", s.rows, s.cols, s.inner);
    return out;
}

const char *product_shape_label(struct product_shape s, char out[PRODUCT_SHAPE_LEN])
{
    char text[PRODUCT_SHAPE_LEN]; /* at most 32 characters: three 10-digit extents */
    product_shape_text(s, text);
    snprintf(out, PRODUCT_SHAPE_LEN, "%s%.40s", product_shape_width(s) || s.rows == 0 ? "W=" : "", text);
    return out;
}

/* A whole number from 0 to max at *text, which is left after it; -1 when there is none. */
static int parse_extent(const char **text, long max, int *out)
{
    char *end;
    if (**text < '0' || **text > '9')
        return -1;
    errno = 0;
    long value = strtol(*text, &end, 10);
    if (errno || value > max)
        return -1;
    *out = (int)value;
    *text = end;
    return 0;
}

int product_shape_parse(const char *text, long max, struct product_shape *s)
{
    int extents[3], n = 0;
    for (const char *at = text;; ++at) {
        if (n == 3 || parse_extent(&at, max, &extents[n++]))
            return -1;
        if (*at == '\0')
            break;
        if (*at != 'x')
            return -1;
    }
    if (n == 2)
        return -1;
    struct product_shape parsed =
        n == 1 ? product_shape_square(extents[0]) : (struct product_shape){extents[0], extents[1], extents[2]};
    if (!product_shape_whole(parsed))
        return -1;
    *s = parsed;
    return 0;
}

int shape_columns_find(const struct csv_table *t, struct shape_columns *c, struct error *e)
{
    if (csv_table_column(t, "width", &c->width, e))
        return e->code;
    c->rows = csv_table_column_or_none(t, "rows");
    c->cols = csv_table_column_or_none(t, "cols");
    c->inner = csv_table_column_or_none(t, "inner");
    int present = (c->rows >= 0) + (c->cols >= 0) + (c->inner >= 0);
    if (present != 0 && present != 3)
        return error_set(e, EXIT_USAGE,
                         "%s:1: rows, cols and inner go together (a product's shape), but only %d of "
                         "them are there",
                         t->path, present);
    return 0;
}

int shape_columns_read(const struct csv_table *t, int row, const struct shape_columns *c, struct product_shape *s,
                       struct error *e)
{
    int width;
    if (csv_table_int(t, row, c->width, &width, e))
        return e->code;
    if (c->rows < 0) {
        *s = product_shape_square(width);
        return 0;
    }
    if (csv_table_int(t, row, c->rows, &s->rows, e) || csv_table_int(t, row, c->cols, &s->cols, e) ||
        csv_table_int(t, row, c->inner, &s->inner, e))
        return e->code;
    if (!product_shape_whole(*s))
        return error_set(e, EXIT_USAGE,
                         "%s:%d: rows x cols x inner %d x %d x %d: an extent of 0 beside others (each "
                         "at least 1, or all 0 for a job of no product)",
                         t->path, t->line[row], s->rows, s->cols, s->inner);
    if (product_shape_width(*s) != width)
        return error_set(e, EXIT_USAGE,
                         "%s:%d: width %d does not match rows x cols x inner %d x %d x %d (a square's "
                         "width, else 0)",
                         t->path, t->line[row], width, s->rows, s->cols, s->inner);
    return 0;
}

void csv_shape(struct csv *c, struct product_shape s)
{
    csv_int(c, s.rows);
    csv_int(c, s.cols);
    csv_int(c, s.inner);
}
