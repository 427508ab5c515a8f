#include "../../cupti/metric_host.h"
#include "../results/schema.h"
#include "../source/locate.h"
#include "stalls_csv.h"

int stalls_csv_create(struct csv *c, const char *dir, struct error *e)
{
    return schema_create(c, dir, &stalls_csv, e);
}

void stalls_csv_rows(struct csv *c, const struct stall_call *call, const struct stall_reasons *reasons)
{
    for (size_t i = 0; i < call->n; ++i) {
        const struct stall_line *l = &call->lines[i];
        char kernel[SOURCE_FUNCTION_LEN], text[SOURCE_TEXT_LEN];
        prof_demangle(l->function, kernel, sizeof kernel);
        source_line_text(l->file, l->line, text, sizeof text);
        for (int r = 0; r < reasons->n; ++r) {
            if (l->samples[r] == 0)
                continue;
            csv_text(c, call->variant);
            csv_text(c, call->precision);
            csv_int(c, call->width);
            csv_text(c, kernel);
            csv_text(c, l->file);
            csv_int(c, l->line);
            csv_text(c, text);
            csv_text(c, reasons->name[r]);
            csv_uint(c, l->samples[r]);
            csv_end_row(c);
        }
    }
}
