#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "stall_lines.h"

static struct stall_line *find_line(struct stall_call *c, const char *function, const char *file, int line)
{
    for (size_t i = c->n; i-- > 0;) /* an instruction's line is most often the last one placed */
        if (c->lines[i].line == line && strcmp(c->lines[i].file, file) == 0 &&
            strcmp(c->lines[i].function, function) == 0)
            return &c->lines[i];
    return NULL;
}

int stall_add(struct stall_call *c, const char *function, const char *file, int line, const uint64_t *samples,
              int n_reasons, struct error *e)
{
    struct stall_line *l = find_line(c, function, file, line);
    if (!l) {
        if (grow_for_one_more((void **)&c->lines, c->n, sizeof *c->lines))
            return error_set(e, EXIT_RUNTIME, "out of host memory for the stall samples of %s", c->variant);
        l = &c->lines[c->n++];
        memset(l, 0, sizeof *l);
        snprintf(l->function, sizeof l->function, "%s", function);
        snprintf(l->file, sizeof l->file, "%s", file);
        l->line = line;
    }
    for (int r = 0; r < n_reasons; ++r)
        l->samples[r] += samples[r];
    return 0;
}

uint64_t stall_function_totals(const struct stall_call *c, const char *function, int n_reasons,
                               uint64_t totals[PROF_PCS_MAX_REASONS])
{
    uint64_t all = 0;
    memset(totals, 0, PROF_PCS_MAX_REASONS * sizeof *totals);
    for (size_t i = 0; i < c->n; ++i) {
        if (function && strcmp(c->lines[i].function, function) != 0)
            continue;
        for (int r = 0; r < n_reasons; ++r) {
            totals[r] += c->lines[i].samples[r];
            all += c->lines[i].samples[r];
        }
    }
    return all;
}

const char *stall_busiest_function(const struct stall_call *c, int n_reasons)
{
    const char *busiest = NULL;
    uint64_t most = 0, totals[PROF_PCS_MAX_REASONS];
    for (size_t i = 0; i < c->n; ++i) {
        const char *function = c->lines[i].function;
        if (busiest && strcmp(busiest, function) == 0)
            continue;
        uint64_t all = stall_function_totals(c, function, n_reasons, totals);
        if (all > most) {
            most = all;
            busiest = function;
        }
    }
    return busiest;
}

int stall_top_reason(const uint64_t totals[PROF_PCS_MAX_REASONS], int n_reasons)
{
    int top = -1;
    for (int r = 0; r < n_reasons; ++r)
        if (totals[r] > 0 && (top < 0 || totals[r] > totals[top]))
            top = r;
    return top;
}

void stall_summarize(const struct stall_call *c, const struct stall_reasons *reasons, struct stall_summary *out)
{
    uint64_t totals[PROF_PCS_MAX_REASONS];
    const char *kernel = stall_busiest_function(c, reasons->n);
    memset(out, 0, sizeof *out);
    out->wall_ms = c->wall_ms;
    if (!kernel)
        return;
    out->samples = stall_function_totals(c, kernel, reasons->n, totals);
    int top = stall_top_reason(totals, reasons->n);
    snprintf(out->top_reason, sizeof out->top_reason, "%s", reasons->name[top]);
    out->top_pct = 100.0 * (double)totals[top] / (double)out->samples;
}

void stall_call_free(struct stall_call *c)
{
    free(c->lines);
    c->lines = NULL;
    c->n = 0;
}
