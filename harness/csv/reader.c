#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "../common/grow.h"
#include "../common/numbers.h"

/* One record: its fields' texts one after another in one buffer, each ended by '\0' (a cell is one pointer into it:
 * a profile's summary of 100,000 rows and 70 columns would otherwise make 7 million allocations), and where each
 * field starts in it. */
struct record {
    char *bytes;
    size_t length, capacity;
    size_t *starts;
    int count, starts_capacity;
};

static int record_push(struct record *r, char c)
{
    if (r->length + 1 >= r->capacity) {
        size_t capacity = r->capacity ? 2 * r->capacity : 256;
        char *bytes = realloc(r->bytes, capacity);
        if (!bytes)
            return -1;
        r->bytes = bytes;
        r->capacity = capacity;
    }
    r->bytes[r->length++] = c;
    return 0;
}

/* The field being read ends here; the next begins after its '\0'. */
static int record_end_field(struct record *r, size_t *field_start)
{
    if (r->count == r->starts_capacity) {
        int capacity = r->starts_capacity ? 2 * r->starts_capacity : 16;
        size_t *starts = realloc(r->starts, (size_t)capacity * sizeof *starts);
        if (!starts)
            return -1;
        r->starts = starts;
        r->starts_capacity = capacity;
    }
    r->starts[r->count++] = *field_start;
    if (record_push(r, '\0'))
        return -1;
    *field_start = r->length;
    return 0;
}

static void record_free(struct record *r)
{
    free(r->bytes);
    free(r->starts);
    *r = (struct record){0};
}

/* The record's fields as cells: an array of pointers into its buffer, which the first of them owns (cells_free).
 * The record is left empty. NULL when memory runs out. */
static char **record_cells(struct record *r)
{
    char *bytes = realloc(r->bytes, r->length ? r->length : 1); /* the buffer's spare room given back */
    char **cells = malloc((size_t)r->count * sizeof *cells);
    if (bytes)
        r->bytes = bytes;
    if (!bytes || !cells) {
        free(cells);
        return NULL;
    }
    for (int i = 0; i < r->count; ++i)
        cells[i] = r->bytes + r->starts[i];
    free(r->starts);
    *r = (struct record){0};
    return cells;
}

static void cells_free(char **cells)
{
    if (cells)
        free(cells[0]);
    free(cells);
}

enum record_end { RECORD_DONE, RECORD_EOF, RECORD_ERROR };

/* Reads one RFC 4180 record; *line advances past the newlines it consumes. */
static enum record_end read_record(FILE *in, const char *path, int *line, struct record *out, struct error *e)
{
    int quoted = 0, start_line = *line, c;
    size_t field_start = 0;
    if ((c = fgetc(in)) == EOF)
        return RECORD_EOF;
    for (;; c = fgetc(in)) {
        if (c == EOF) {
            if (quoted)
                error_set(e, EXIT_USAGE, "%s:%d: a quoted field is never closed (file truncated?)", path, start_line);
            else
                error_set(e, EXIT_USAGE, "%s:%d: the last line has no newline (file truncated?)", path, *line);
            return RECORD_ERROR;
        }
        if (quoted) {
            if (c == '"') {
                int next = fgetc(in);
                if (next != '"') {
                    quoted = 0;
                    ungetc(next, in);
                    continue;
                }
            } else if (c == '\n') {
                ++*line;
            }
        } else if (c == '"' && out->length == field_start) {
            quoted = 1;
            continue;
        } else if (c == ',' || c == '\n') {
            if (record_end_field(out, &field_start))
                break;
            if (c == '\n') {
                ++*line;
                return RECORD_DONE;
            }
            continue;
        } else if (c == '\r') {
            continue;
        }
        if (record_push(out, (char)c))
            break;
    }
    error_set(e, EXIT_RUNTIME, "%s: out of memory", path);
    return RECORD_ERROR;
}

static int add_row(struct csv_table *t, struct record *r, int line, struct error *e)
{
    if (r->count != t->columns) {
        error_set(e, EXIT_USAGE, "%s:%d: %d fields, but the header has %d (file truncated or malformed?)", t->path,
                  line, r->count, t->columns);
        record_free(r);
        return e->code;
    }
    char **cells = record_cells(r);
    if (!cells || grow_for_one_more((void **)&t->cells, (size_t)t->rows, sizeof *t->cells) ||
        grow_for_one_more((void **)&t->line, (size_t)t->rows, sizeof *t->line)) {
        cells_free(cells);
        record_free(r);
        return error_set(e, EXIT_RUNTIME, "%s: out of memory", t->path);
    }
    t->cells[t->rows] = cells;
    t->line[t->rows++] = line;
    return 0;
}

/* A spreadsheet that saves a results file as "CSV UTF-8" puts a byte-order mark before the header. */
static void skip_byte_order_mark(FILE *in)
{
    static const unsigned char mark[] = {0xEF, 0xBB, 0xBF};
    unsigned char head[sizeof mark];
    size_t n = fread(head, 1, sizeof head, in);
    if (n != sizeof mark || memcmp(head, mark, sizeof mark) != 0)
        rewind(in);
}

static int read_rows(FILE *in, struct csv_table *t, struct error *e)
{
    int line = 1;
    skip_byte_order_mark(in);
    struct record r = {0};
    switch (read_record(in, t->path, &line, &r, e)) {
    case RECORD_EOF:
        return error_set(e, EXIT_USAGE, "%s: the file is empty (no header)", t->path);
    case RECORD_ERROR:
        record_free(&r);
        return e->code;
    case RECORD_DONE:
        break;
    }
    t->columns = r.count;
    if (!(t->header = record_cells(&r))) {
        record_free(&r);
        return error_set(e, EXIT_RUNTIME, "%s: out of memory", t->path);
    }
    for (;;) {
        int start = line;
        enum record_end end = read_record(in, t->path, &line, &r, e);
        if (end == RECORD_EOF)
            return 0;
        if (end == RECORD_ERROR) {
            record_free(&r);
            return e->code;
        }
        if (add_row(t, &r, start, e))
            return e->code;
    }
}

int csv_table_read(const char *path, struct csv_table *t, struct error *e)
{
    *t = (struct csv_table){0};
    snprintf(t->path, sizeof t->path, "%s", path);
    FILE *in = fopen(path, "r");
    if (!in)
        return error_set(e, EXIT_USAGE, "cannot read %s: %s", path, strerror(errno));
    read_rows(in, t, e);
    if (!e->code && ferror(in))
        error_set(e, EXIT_USAGE, "reading %s failed", path);
    fclose(in);
    if (e->code)
        csv_table_free(t);
    return e->code;
}

void csv_table_free(struct csv_table *t)
{
    for (int r = 0; r < t->rows; ++r)
        cells_free(t->cells[r]);
    cells_free(t->header);
    free(t->cells);
    free(t->line);
    t->header = NULL;
    t->cells = NULL;
    t->line = NULL;
    t->rows = t->columns = 0;
}

int csv_table_column_or_none(const struct csv_table *t, const char *name)
{
    for (int c = 0; c < t->columns; ++c)
        if (strcmp(t->header[c], name) == 0)
            return c;
    return -1;
}

int csv_table_column(const struct csv_table *t, const char *name, int *column, struct error *e)
{
    *column = csv_table_column_or_none(t, name);
    if (*column < 0)
        return error_set(e, EXIT_USAGE, "%s:1: no column '%s' in the header", t->path, name);
    return 0;
}

const char *csv_table_text(const struct csv_table *t, int row, int column)
{
    return t->cells[row][column];
}

int csv_table_real(const struct csv_table *t, int row, int column, double *value, struct error *e)
{
    const char *text = t->cells[row][column];
    *value = NAN;
    if (text[0] == '\0')
        return 0;
    if (parse_real(text, -HUGE_VAL, HUGE_VAL, value))
        return error_set(e, EXIT_USAGE, "%s:%d: column '%s' holds '%s', not a number", t->path, t->line[row],
                         t->header[column], text);
    return 0;
}

int csv_table_int(const struct csv_table *t, int row, int column, int *value, struct error *e)
{
    long parsed;
    const char *text = t->cells[row][column];
    if (parse_long(text, INT_MIN, INT_MAX, &parsed))
        return error_set(e, EXIT_USAGE, "%s:%d: column '%s' holds '%s', not a whole number", t->path, t->line[row],
                         t->header[column], text);
    *value = (int)parsed;
    return 0;
}

int csv_table_required_real(const struct csv_table *t, int row, int column, double *value, struct error *e)
{
    if (csv_table_real(t, row, column, value, e))
        return e->code;
    if (isnan(*value))
        return error_set(e, EXIT_USAGE, "%s:%d: column '%s' is empty", t->path, t->line[row], t->header[column]);
    return 0;
}
