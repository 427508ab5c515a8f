#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source_lines.h"

static void add_opcode(char *opcodes, const char *opcode)
{
    size_t len = strlen(opcode), used = strlen(opcodes);
    if (len == 0) /* nothing to list, and strstr would find "" forever */
        return;
    for (const char *at = opcodes; (at = strstr(at, opcode)); at += len)
        if ((at == opcodes || at[-1] == ' ') && (at[len] == ' ' || at[len] == '\0'))
            return;
    if (used + len + 2 <= SOURCE_OPCODES_LEN)
        snprintf(opcodes + used, SOURCE_OPCODES_LEN - used, "%s%s", used ? " " : "", opcode);
}

static struct source_line *find_line(struct source_line *lines, size_t n, const struct source_instruction *in)
{
    for (size_t i = n; i > 0; --i)
        if (lines[i - 1].line == in->line && strcmp(lines[i - 1].file, in->file) == 0 &&
            strcmp(lines[i - 1].function, in->function) == 0)
            return &lines[i - 1];
    return NULL;
}

int source_lines(const struct source_call *call, struct source_line **lines, size_t *n, struct error *e)
{
    *n = 0;
    *lines = calloc(call->n + 1, sizeof **lines);
    if (!*lines)
        return error_set(e, EXIT_RUNTIME, "out of host memory for %zu source lines", call->n);
    for (size_t i = 0; i < call->n; ++i) {
        const struct source_instruction *in = &call->instructions[i];
        double values[LINE_METRIC_COUNT];
        struct source_line *l = find_line(*lines, *n, in);
        if (!l) {
            l = &(*lines)[(*n)++];
            *l = (struct source_line){.function = in->function, .file = in->file, .line = in->line};
        }
        add_opcode(l->opcodes, in->opcode);
        line_metrics_of_instruction(in->values, in->opcode, values);
        for (int m = 0; m < LINE_METRIC_COUNT; ++m)
            l->values[m] += values[m];
    }
    return 0;
}

void source_function_totals(const struct source_call *call, const char *function, double totals[LINE_METRIC_COUNT])
{
    memset(totals, 0, LINE_METRIC_COUNT * sizeof *totals);
    for (size_t i = 0; i < call->n; ++i) {
        double values[LINE_METRIC_COUNT];
        if (function && strcmp(call->instructions[i].function, function) != 0)
            continue;
        line_metrics_of_instruction(call->instructions[i].values, call->instructions[i].opcode, values);
        for (int m = 0; m < LINE_METRIC_COUNT; ++m)
            totals[m] += values[m];
    }
}

int source_finding_lines(const struct source_call *call, const char *function, struct finding_lines *w,
                         struct error *e)
{
    struct source_line *lines;
    size_t n;
    finding_lines_init(w);
    if (source_lines(call, &lines, &n, e))
        return e->code;
    for (size_t i = 0; i < n; ++i) {
        const double *v = lines[i].values;
        if (!function || strcmp(lines[i].function, function) == 0)
            finding_lines_add(w, &(struct line_counts){lines[i].file, lines[i].line, v[LINE_GLOBAL_LD_SECTORS],
                                                       v[LINE_GLOBAL_ST_SECTORS], v[LINE_GLOBAL_EXCESS_SECTORS],
                                                       v[LINE_SHARED_LD_WAVEFRONTS], v[LINE_SHARED_ST_WAVEFRONTS],
                                                       v[LINE_SHARED_EXCESS_WAVEFRONTS], v[LINE_PREDICATED_OFF_LANES],
                                                       v[LINE_CONVERSIONS]});
    }
    free(lines);
    return 0;
}
