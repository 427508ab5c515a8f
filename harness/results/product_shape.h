/*
 * The shape of a matrix product, the key of a results folder's rows beside the variant: P (rows x cols) =
 * M (rows x inner) x N (inner x cols), BLAS's M x N x K. A square product of width W is W x W x W; a program's job,
 * which multiplies no matrices, is 0 x 0 x 0 (width 0, as job_name.h keys it).
 *
 * The files keep the column width (the square's width, 0 for a rectangle) that every older folder keys its rows by,
 * and carry rows, cols and inner as their last columns: a file without them is read as squares of its widths.
 */
#ifndef MEMSCOPE_RESULTS_PRODUCT_SHAPE_H
#define MEMSCOPE_RESULTS_PRODUCT_SHAPE_H

#include <stdbool.h>

#include "../common/error.h"
#include "../csv/reader.h"
#include "../csv/writer.h"

struct product_shape {
    int rows, cols, inner;
};

/* The key of a job that multiplies no matrices: a program's, a ground-truth case's. */
#define PRODUCT_SHAPE_NONE ((struct product_shape){0, 0, 0})

/* "8192x3072x1024", "W=46340" with room to spare. */
#define PRODUCT_SHAPE_LEN 48

struct product_shape product_shape_square(int width);
/* The square's width; 0 for a product that is not square. */
int product_shape_width(struct product_shape s);
bool product_shape_equal(struct product_shape a, struct product_shape b);
/* Each extent at least 1, or all 0 (PRODUCT_SHAPE_NONE): not a product with an empty side beside others. */
bool product_shape_whole(struct product_shape s);
/* Orders shapes by their multiply-adds, then rows, cols and inner: squares by width. */
int product_shape_compare(struct product_shape a, struct product_shape b);
/* As `-s` takes it and the files' other texts hold it: "4096" for a square, "8192x3072x1024" otherwise. */
const char *product_shape_text(struct product_shape s, char out[PRODUCT_SHAPE_LEN]);
/* As a page, the terminal and an NVTX range name it: "W=4096" for a square, "8192x3072x1024" otherwise. */
const char *product_shape_label(struct product_shape s, char out[PRODUCT_SHAPE_LEN]);
/* Inserts s into the n shapes (room for most) in product_shape_compare's order, once: 0, or -1 when it is new and
 * there is no room. */
int product_shapes_insert(struct product_shape *shapes, int *n, int most, struct product_shape s);
/* The three extents as text (rows, cols, inner), as a database's parameters take them. */
void product_shape_extents(struct product_shape s, char out[3][16]);
/* "W" or "RxCxI" (each a whole number from 0 to max, product_shape_whole), whole text; 0, or -1 when it is neither. */
int product_shape_parse(const char *text, long max, struct product_shape *s);

/* Where a table keeps a row's shape: its width column, and rows, cols and inner (-1 in an older file: squares). */
struct shape_columns {
    int width, rows, cols, inner;
};

/* Finds them by name; an error naming the file when width is missing, or only some of rows, cols and inner. */
int shape_columns_find(const struct csv_table *t, struct shape_columns *c, struct error *e);
/* A row's shape; an error naming the file and line when a value is not a whole number, or width disagrees. */
int shape_columns_read(const struct csv_table *t, int row, const struct shape_columns *c, struct product_shape *s,
                       struct error *e);
/* The three last columns of a row. */
void csv_shape(struct csv *c, struct product_shape s);

#endif
