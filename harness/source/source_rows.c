#include <stdlib.h>

#include "../../cupti/metric_host.h"
#include "../results/instructions_csv.h"
#include "../results/lines_csv.h"
#include "../results/schema.h"
#include "source_lines.h"
#include "source_metrics.h"
#include "source_rows.h"

/* The kernel's name in the rows: the call's where it names one, else the instructions', demangled. */
static const char *kernel_of(const struct source_call *call, const char *function, char *out, size_t len)
{
    if (call->kernel[0])
        return call->kernel;
    prof_demangle(function, out, len);
    return out;
}

static void write_line(struct csv *c, const struct source_capture *capture, const struct source_call *call,
                      const struct source_line *l)
{
    char demangled[SOURCE_FUNCTION_LEN];
    const char *kernel = kernel_of(call, l->function, demangled, sizeof demangled);
    const struct source_text *text = source_find_text(capture, l->file, l->line);
    for (int m = 0; m < LINE_METRIC_COUNT; ++m)
        if (l->values[m] != 0.0)
            lines_csv_row(c, &(struct line_row){call->variant, call->precision, call->shape, kernel, l->file, l->line,
                                                text ? text->text : "", l->opcodes, line_metric_name(m), l->values[m]});
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

/* The schema names the line metrics' columns one by one; they must be the line metrics, in their order. */
_Static_assert(INSTRUCTIONS_ROWS - INSTRUCTIONS_INST_EXECUTED == LINE_METRIC_COUNT,
               "instructions.csv's metric columns are not the line metrics (source_metrics.h)");

static void write_instruction(struct csv *c, const struct source_call *call, const struct source_instruction *in)
{
    char demangled[SOURCE_FUNCTION_LEN];
    const char *kernel = kernel_of(call, in->function, demangled, sizeof demangled);
    double values[LINE_METRIC_COUNT];
    line_metrics_of_instruction(in->values, in->opcode, values);
    instructions_csv_row(c, &(struct instruction_row){call->variant, call->precision, call->shape, kernel, in->pc,
                                                      in->file, in->line, in->opcode, values});
}

int source_write_instruction_rows(struct csv *c, const struct source_capture *capture, struct error *e)
{
    for (int k = 0; k < capture->n_calls; ++k)
        for (size_t i = 0; i < capture->calls[k].n; ++i)
            write_instruction(c, &capture->calls[k], &capture->calls[k].instructions[i]);
    return e->code;
}
