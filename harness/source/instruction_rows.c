#include "../../cupti/metric_host.h"
#include "../results/instructions_csv.h"
#include "../results/schema.h"
#include "instruction_rows.h"
#include "source_metrics.h"

/* The schema names the line metrics' columns one by one; they must be the line metrics, in their order. */
_Static_assert(INSTRUCTIONS_COLUMNS - INSTRUCTIONS_INST_EXECUTED == LINE_METRIC_COUNT,
               "instructions.csv's metric columns are not the line metrics (source_metrics.h)");

static void write_instruction(struct csv *c, const struct source_call *call, const struct source_instruction *in)
{
    char kernel[SOURCE_FUNCTION_LEN];
    double values[LINE_METRIC_COUNT];
    prof_demangle(in->function, kernel, sizeof kernel);
    line_metrics_of_instruction(in->values, in->opcode, values);
    instructions_csv_row(c, &(struct instruction_row){call->variant, call->precision, call->width, kernel, in->pc,
                                                      in->file, in->line, in->opcode, values});
}

int source_write_instruction_rows(struct csv *c, const struct source_capture *capture, struct error *e)
{
    for (int k = 0; k < capture->n_calls; ++k)
        for (size_t i = 0; i < capture->calls[k].n; ++i)
            write_instruction(c, &capture->calls[k], &capture->calls[k].instructions[i]);
    return e->code;
}
