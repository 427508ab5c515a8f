#include <stdlib.h>

#include "../../cupti/metric_host.h"
#include "../results/lines_csv.h"
#include "line_rows.h"
#include "source_lines.h"

static void write_line(struct csv *c, const struct source_capture *capture, const struct source_call *call,
                      const struct source_line *l)
{
    char kernel[SOURCE_FUNCTION_LEN];
    const struct source_text *text = source_find_text(capture, l->file, l->line);
    prof_demangle(l->function, kernel, sizeof kernel);
    for (int m = 0; m < LINE_METRIC_COUNT; ++m)
        if (l->values[m] != 0.0)
            lines_csv_row(c, &(struct line_row){call->variant, call->precision, call->width, kernel, l->file, l->line,
                                                text ? text->text : "", l->opcodes, line_metric_name(m),
                                                l->values[m]});
}

int source_write_rows(struct csv *c, const struct source_capture *capture, struct error *e)
{
    for (int k = 0; k < capture->n_calls && !e->code; ++k) {
        struct source_line *lines;
        size_t n;
        if (source_lines(&capture->calls[k], &lines, &n, e))
            return e->code;
        for (size_t i = 0; i < n; ++i)
            write_line(c, capture, &capture->calls[k], &lines[i]);
        free(lines);
    }
    return e->code;
}
