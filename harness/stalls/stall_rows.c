#include "../../cupti/metric_host.h"
#include "../results/stalls_csv.h"
#include "../source/locate.h"
#include "stall_rows.h"

void stalls_write_rows(struct csv *c, const struct stall_call *call, const struct stall_reasons *reasons)
{
    for (size_t i = 0; i < call->n; ++i) {
        const struct stall_line *l = &call->lines[i];
        char kernel[SOURCE_FUNCTION_LEN], text[SOURCE_TEXT_LEN];
        prof_demangle(l->function, kernel, sizeof kernel);
        source_line_text(l->file, l->line, text, sizeof text);
        for (int r = 0; r < reasons->n; ++r)
            if (l->samples[r] != 0)
                stalls_csv_row(c, &(struct stall_row){call->variant, call->precision, call->shape, kernel, l->file,
                                                      l->line, text, reasons->name[r], l->samples[r]});
    }
}
