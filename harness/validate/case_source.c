#include "../gpu/nvtx.h"
#include "case_source.h"

int case_source(struct gpu *g, struct source_collector *s, const struct profiled_call *call, const char *path,
                double totals[LINE_METRIC_COUNT], struct finding_lines *lines, struct error *e)
{
    static struct source_capture capture;
    struct source_cost cost;
    nvtx_phase_begin(PHASE_SOURCE, 0);
    source_collect(s, g, call, 1, &capture, &cost, e);
    nvtx_end();
    if (!e->code && source_capture_write(path, &capture, e) == 0 &&
        (!lines || source_finding_lines(&capture.calls[0], NULL, lines, e) == 0))
        source_function_totals(&capture.calls[0], NULL, totals);
    source_capture_free(&capture);
    return e->code;
}
