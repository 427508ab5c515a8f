#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"
#include "../common/numbers.h"

/* A growing array of strings: the fields of one record. */
struct fields {
    char **items;
    int count, capacity;
};

struct text {
    char *bytes;
    size_t length, capacity;
};

static int text_push(struct text *t, char c)
{
    if (t->length + 1 >= t->capacity) {
        size_t capacity = t->capacity ? 2 * t->capacity : 64;
        char *bytes = realloc(t->bytes, capacity);
        if (!bytes)
            return -1;
        t->bytes = bytes;
        t->capacity = capacity;
    }
    t->bytes[t->length++] = c;
    t->bytes[t->length] = '\0';
    return 0;
}

static int fields_push(struct fields *f, struct text *field)
{
    if (f->count == f->capacity) {
        int capacity = f->capacity ? 2 * f->capacity : 16;
        char **items = realloc(f->items, (size_t)capacity * sizeof *items);
        if (!items)
            return -1;
        f->items = items;
        f->capacity = capacity;
    }
    f->items[f->count++] = field->bytes ? field->bytes : strdup("");
    *field = (struct text){0};
    return f->items[f->count - 1] ? 0 : -1;
}

static void fields_free(struct fields *f)
{
    for (int i = 0; i < f->count; ++i)
        free(f->items[i]);
    free(f->items);
    *f = (struct fields){0};
}

enum record_end { RECORD_DONE, RECORD_EOF, RECORD_ERROR };

/* Reads one RFC 4180 record; *line advances past the newlines it consumes. */
static enum record_end read_record(FILE *in, const char *path, int *line, struct fields *out, struct error *e)
{
    struct text field = {0};
    int quoted = 0, start_line = *line, c;
    if ((c = fgetc(in)) == EOF)
        return RECORD_EOF;
    for (;; c = fgetc(in)) {
        if (c == EOF) {
            free(field.bytes);
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
        } else if (c == '"' && field.length == 0) {
            quoted = 1;
            continue;
        } else if (c == ',' || c == '\n') {
            if (fields_push(out, &field))
                break;
            if (c == '\n') {
                ++*line;
                return RECORD_DONE;
            }
            continue;
        } else if (c == '\r') {
            continue;
        }
        if (text_push(&field, (char)c))
            break;
    }
    free(field.bytes);
    error_set(e, EXIT_RUNTIME, "%s: out of memory", path);
    return RECORD_ERROR;
}

static int add_row(struct csv_table *t, struct fields *f, int line, struct error *e)
{
    if (f->count != t->columns) {
        error_set(e, EXIT_USAGE, "%s:%d: %d fields, but the header has %d (file truncated or malformed?)", t->path,
                  line, f->count, t->columns);
        fields_free(f);
        return e->code;
    }
    char ***cells = realloc(t->cells, (size_t)(t->rows + 1) * sizeof *cells);
    int *lines = realloc(t->line, (size_t)(t->rows + 1) * sizeof *lines);
    if (cells)
        t->cells = cells;
    if (lines)
        t->line = lines;
    if (!cells || !lines) {
        fields_free(f);
        return error_set(e, EXIT_RUNTIME, "%s: out of memory", t->path);
    }
    t->cells[t->rows] = f->items;
    t->line[t->rows++] = line;
    *f = (struct fields){0};
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
    struct fields f = {0};
    switch (read_record(in, t->path, &line, &f, e)) {
    case RECORD_EOF:
        return error_set(e, EXIT_USAGE, "%s: the file is empty (no header)", t->path);
    case RECORD_ERROR:
        fields_free(&f);
        return e->code;
    case RECORD_DONE:
        break;
    }
    t->header = f.items;
    t->columns = f.count;
    for (;;) {
        int start = line;
        f = (struct fields){0};
        enum record_end end = read_record(in, t->path, &line, &f, e);
        if (end == RECORD_EOF)
            return 0;
        if (end == RECORD_ERROR) {
            fields_free(&f);
            return e->code;
        }
        if (add_row(t, &f, start, e))
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
    for (int r = 0; r < t->rows; ++r) {
        struct fields f = {t->cells[r], t->columns, t->columns};
        fields_free(&f);
    }
    struct fields header = {t->header, t->columns, t->columns};
    fields_free(&header);
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
