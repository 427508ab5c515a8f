#include "../../cupti/metric_host.h"
#include "instructions_csv.h"
#include "schema.h"

/* The schema names the line metrics' columns one by one; they must be the line metrics, in their order. */
_Static_assert(INSTRUCTIONS_COLUMNS - INSTRUCTIONS_INST_EXECUTED == LINE_METRIC_COUNT,
               "instructions.csv's metric columns are not the line metrics (harness/source/source_metrics.h)");

void instructions_csv_on_stream(struct csv *c, FILE *stream, const char *name)
{
    schema_on_stream(c, stream, name, &instructions_csv, 1);
}

static void instruction_row(struct csv *c, const struct source_call *call, const struct source_instruction *in)
{
    char kernel[SOURCE_FUNCTION_LEN];
    double values[LINE_METRIC_COUNT];
    prof_demangle(in->function, kernel, sizeof kernel);
    line_metrics_of_instruction(in->values, values);
    csv_text(c, call->variant);
    csv_text(c, call->precision);
    csv_int(c, call->width);
    csv_text(c, kernel);
    csv_uint(c, in->pc);
    csv_text(c, in->file);
    csv_int(c, in->line);
    csv_text(c, in->opcode);
    for (int m = 0; m < LINE_METRIC_COUNT; ++m)
        csv_real(c, values[m]);
    csv_end_row(c);
}

int instructions_csv_rows(struct csv *c, const struct source_capture *capture, struct error *e)
{
    for (int k = 0; k < capture->n_calls; ++k)
        for (size_t i = 0; i < capture->calls[k].n; ++i)
            instruction_row(c, &capture->calls[k], &capture->calls[k].instructions[i]);
    return e->code;
}
