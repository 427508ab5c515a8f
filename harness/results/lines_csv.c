#include <stdlib.h>

#include "../../cupti/metric_host.h"
#include "../source/source_lines.h"
#include "lines_csv.h"
#include "schema.h"

int lines_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &lines_csv, e);
}

void lines_csv_on_stream(struct csv *c, FILE *stream, const char *name)
{
    schema_on_stream(c, stream, name, &lines_csv, 1);
}

static void line_rows(struct csv *c, const struct source_capture *capture, const struct source_call *call,
                      const struct source_line *l)
{
    char kernel[SOURCE_FUNCTION_LEN];
    const struct source_text *text = source_find_text(capture, l->file, l->line);
    prof_demangle(l->function, kernel, sizeof kernel);
    for (int m = 0; m < LINE_METRIC_COUNT; ++m) {
        if (l->values[m] == 0.0)
            continue;
        csv_text(c, call->variant);
        csv_text(c, call->precision);
        csv_int(c, call->width);
        csv_text(c, kernel);
        csv_text(c, l->file);
        csv_int(c, l->line);
        csv_text(c, text ? text->text : "");
        csv_text(c, l->opcodes);
        csv_text(c, line_metric_name(m));
        csv_real(c, l->values[m]);
        csv_end_row(c);
    }
}

int lines_csv_rows(struct csv *c, const struct source_capture *capture, struct error *e)
{
    for (int k = 0; k < capture->n_calls && !e->code; ++k) {
        struct source_line *lines;
        size_t n;
        if (source_lines(&capture->calls[k], &lines, &n, e))
            return e->code;
        for (size_t i = 0; i < n; ++i)
            line_rows(c, capture, &capture->calls[k], &lines[i]);
        free(lines);
    }
    return e->code;
}
